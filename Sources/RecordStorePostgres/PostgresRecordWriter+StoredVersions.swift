// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// What a save reads of the records it names before it decides: the registry (each record's
/// type, and whether the records' zones exist), then the stored rows of the records found.
extension PostgresRecordWriter {
    /// The records a registry statement reads at most (two `text[]` arrays).
    static let registryChunk = 5_000

    /// What the registry says of a save's records: the type of each one stored, and which of
    /// the zones asked about exist.
    struct RegistryRead: Sendable {
        var types: [RecordID: String] = [:]
        var existingZones: Set<String> = []

        /// Takes one row of ``statement(of:checkingZones:)``: a record's `(zone, recordName,
        /// recordType)`, or a zone's `(name, NULL, NULL)`.
        mutating func take(_ zone: SQLValue, _ name: SQLValue, _ type: SQLValue) {
            switch (zone, name, type) {
            case (.text(let zone), .text(let name), .text(let type)):
                types[RecordID(recordName: name, zoneID: TableLayout.zone(forKey: zone))] = type
            case (.text(let zoneName), .null, _):
                existingZones.insert(zoneName)
            default:
                break
            }
        }

        /// The registry statement of these records (at most ``registryChunk``), which also reads
        /// which of `zones` exist: rows of `(zone, recordName, recordType)`, and `(name, NULL, NULL)`
        /// for each existing zone.
        static func statement(of ids: some Collection<RecordID>, checkingZones zones: Set<String>) -> SQLStatement {
            var sql = "SELECT zone, recordName, recordType FROM \(PostgresDialect.quote(TableLayout.registryTable)) "
                + "WHERE (zone, recordName) IN (SELECT * FROM unnest($1::text[], $2::text[]))"
            var arguments = PostgresRecordWriter.identifierArrays(ids)
            if !zones.isEmpty {
                sql += " UNION ALL SELECT name, NULL, NULL FROM \(PostgresDialect.quote(TableLayout.zonesTable)) WHERE name = ANY($3::text[])"
                arguments.append(.text(PostgresDialect.arrayLiteral(zones.sorted())))
            }
            return SQLStatement(sql: sql, arguments: arguments)
        }
    }

    /// The stored versions of records: the registry for their types, then each type's rows.
    func storedVersions(of ids: [RecordID]) async throws -> [RecordID: StoredVersion] {
        try await storedVersions(of: ids, checkingZones: []).versions
    }

    /// The stored versions of records, and which of `zones` exist, read with the registry's
    /// first statement (a save checks its records' zones: a round trip saved).
    func storedVersions(of ids: [RecordID], checkingZones zones: Set<String>) async throws -> (versions: [RecordID: StoredVersion], existingZones: Set<String>) {
        guard !ids.isEmpty else { return ([:], []) }
        var registry = RegistryRead()
        for (index, chunk) in Self.chunks(ids, size: Self.registryChunk).enumerated() {
            try await connection.forEachRow(RegistryRead.statement(of: chunk, checkingZones: index == 0 ? zones : [])) { row in
                registry.take(row.value(at: 0), row.value(at: 1), row.value(at: 2))
                return true
            }
        }
        return (try await storedVersions(of: registry), registry.existingZones)
    }

    /// The stored versions of the records a registry read found: their rows, a statement per
    /// record type (and per 5,000 records).
    func storedVersions(of registry: RegistryRead) async throws -> [RecordID: StoredVersion] {
        let types = registry.types
        var versions: [RecordID: StoredVersion] = [:]
        for (recordType, members) in Dictionary(grouping: Array(types.keys), by: { types[$0] ?? "" }) {
            guard catalog.recordTypes[recordType] != nil else { continue }
            for chunk in Self.chunks(members, size: Self.registryChunk) {
                try await connection.forEachRow(SQLStatement(
                    sql: "SELECT \(quote(TableLayout.zoneColumn)), \(quote(TableLayout.recordNameColumn)), \(quote(PostgresLayout.rowColumn)), "
                        + "\(quote(TableLayout.changeTagColumn)), \(quote(TableLayout.creationDateColumn)), \(quote(TableLayout.creatorColumn)) "
                        + "FROM \(quote(TableLayout.recordTable(recordType))) "
                        + "WHERE (\(quote(TableLayout.zoneColumn)), \(quote(TableLayout.recordNameColumn))) IN (SELECT * FROM unnest($1::text[], $2::text[]))",
                    arguments: Self.identifierArrays(chunk))) { row in
                    guard case .text(let zone) = row.value(at: 0), case .text(let name) = row.value(at: 1),
                          case .integer(let rowID) = row.value(at: 2) else { return true }
                    var tag: String?
                    if case .text(let text) = row.value(at: 3) { tag = text }
                    var creation: Date?
                    if case .real(let seconds) = row.value(at: 4) { creation = Date(timeIntervalSinceReferenceDate: seconds) }
                    var creator: String?
                    if case .text(let text) = row.value(at: 5) { creator = text }
                    versions[RecordID(recordName: name, zoneID: TableLayout.zone(forKey: zone))] = StoredVersion(
                        recordType: recordType, changeTag: tag, creationDate: creation, creatorUserRecordName: creator, rowReference: rowID)
                    return true
                }
            }
        }
        return versions
    }
}
#endif

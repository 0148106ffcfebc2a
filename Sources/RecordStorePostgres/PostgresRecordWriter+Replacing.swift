// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// A stored record's row as a save found it: what is written in its place (a record, or only
/// its identifier for a removal), the version read, and the row's identity.
struct StoredRow<Item> {
    let item: Item
    let version: StoredVersion
    let rowID: Int64

    init(_ item: Item, version: StoredVersion, rowID: Int64) {
        self.item = item
        self.version = version
        self.rowID = rowID
    }
}

// Updates and deletions of stored rows, many to a statement per record type. Each changes a row
// only while its change tag is still the one the save read; when another writer got there
// first, fewer rows than expected change and the writer throws ``PostgresWriteRace``, so that
// the engine runs the save again on what is stored now.
extension PostgresRecordWriter {
    /// Items grouped by a key (their record type), the groups in the order their keys first appear.
    static func grouped<Item>(_ items: [Item], by key: (Item) -> String) -> [(key: String, items: [Item])] {
        var order: [String] = []
        var groups: [String: [Item]] = [:]
        for item in items {
            let name = key(item)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(item)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// Updates stored records in place, while their change tags are still the ones read: per
    /// record type, one `UPDATE ... FROM (VALUES ...)` for the rows, then their list members
    /// replaced (one `DELETE` and one `INSERT` per list field).
    func update(_ updates: [StoredRow<Record>]) async throws {
        for (recordType, rows) in Self.grouped(updates, by: { $0.item.recordType }) {
            let schema = try schema(of: recordType)
            let columns = columns(schema)
            // The row's identity and the tag read, then the columns (aliased c0, c1, ...: a
            // column's own name could be the identity's).
            let tuple = "(?::bigint, ?::text, " + columns.map(\.placeholder).joined(separator: ", ") + ")"
            let aliases = (["\"$target\"", "\"$expectedTag\""] + columns.indices.map { "c\($0)" }).joined(separator: ", ")
            let assignments = columns.enumerated().map { "\(quote($0.element.name)) = v.c\($0.offset)" }.joined(separator: ", ")
            let row = quote(PostgresLayout.rowColumn)
            let batch = max(1, Self.maximumArguments / (columns.count + 2))
            for chunk in Self.chunks(rows, size: batch) {
                var arguments: [SQLValue] = []
                arguments.reserveCapacity(chunk.count * (columns.count + 2))
                for stored in chunk {
                    arguments += [.integer(stored.rowID), stored.version.changeTag.map(SQLValue.text) ?? .null]
                    arguments += try values(stored.item, schema: schema)
                }
                let sql = "UPDATE \(quote(TableLayout.recordTable(recordType))) AS r SET \(assignments) "
                    + "FROM (VALUES " + Array(repeating: tuple, count: chunk.count).joined(separator: ", ") + ") AS v(\(aliases)) "
                    + "WHERE r.\(row) = v.\"$target\" AND r.\(quote(TableLayout.changeTagColumn)) IS NOT DISTINCT FROM v.\"$expectedTag\" "
                    + "RETURNING r.\(row)"
                let changed = try await connection.rowCount(SQLStatement(sql, arguments, dialect: PostgresDialect()))
                guard changed == chunk.count else {
                    throw PostgresWriteRace(reason: "\(chunk.count - changed) of \(chunk.count) '\(recordType)' records changed while they were being saved")
                }
            }
            try await deleteMembers(ofRows: rows.map(\.rowID), schema: schema)
            try await insertMembers(rows.map { ($0.rowID, $0.item) }, schema: schema)
        }
    }

    /// Deletes stored records (their list members go with their rows), while their change tags
    /// are still the ones read: per record type, one `DELETE ... USING (VALUES ...)`, then one
    /// `DELETE` of their registry entries.
    func delete(_ removals: [StoredRow<RecordID>]) async throws {
        // A record named twice is deleted once (row identities repeat across record types' tables).
        var seen: Set<RecordID> = []
        let known = removals.filter { catalog.recordTypes[$0.version.recordType] != nil && seen.insert($0.item).inserted }
        guard !known.isEmpty else { return }
        let row = quote(PostgresLayout.rowColumn)
        for (recordType, rows) in Self.grouped(known, by: { $0.version.recordType }) {
            for chunk in Self.chunks(rows, size: Self.maximumArguments / 2) {
                let sql = "DELETE FROM \(quote(TableLayout.recordTable(recordType))) AS r USING (VALUES "
                    + Array(repeating: "(?::bigint, ?::text)", count: chunk.count).joined(separator: ", ")
                    + ") AS v(\"$target\", \"$expectedTag\") WHERE r.\(row) = v.\"$target\" "
                    + "AND r.\(quote(TableLayout.changeTagColumn)) IS NOT DISTINCT FROM v.\"$expectedTag\" RETURNING 1"
                let arguments = chunk.flatMap { [SQLValue.integer($0.rowID), $0.version.changeTag.map(SQLValue.text) ?? .null] }
                let deleted = try await connection.rowCount(SQLStatement(sql, arguments, dialect: PostgresDialect()))
                guard deleted == chunk.count else {
                    throw PostgresWriteRace(reason: "\(chunk.count - deleted) of \(chunk.count) '\(recordType)' records changed while they were being deleted")
                }
            }
        }
        for chunk in Self.chunks(known.map(\.item), size: 5_000) {
            try await connection.execute(SQLStatement(
                sql: "DELETE FROM \(quote(TableLayout.registryTable)) "
                    + "WHERE (zone, recordName) IN (SELECT * FROM unnest($1::text[], $2::text[]))",
                arguments: Self.identifierArrays(chunk)))
        }
    }

    /// Deletes every record of a zone, and the zone.
    func deleteZone(_ zone: ZoneID) async throws {
        let key = TableLayout.zoneKey(zone)
        for schema in catalog.sorted {
            try await connection.execute(SQLStatement(
                sql: "DELETE FROM \(quote(TableLayout.recordTable(schema.name))) WHERE \(quote(TableLayout.zoneColumn)) = $1",
                arguments: [.text(key)]))
        }
        try await connection.execute(SQLStatement(sql: "DELETE FROM \(quote(TableLayout.registryTable)) WHERE zone = $1", arguments: [.text(key)]))
        try await connection.execute(SQLStatement(sql: "DELETE FROM \(quote(TableLayout.zonesTable)) WHERE name = $1", arguments: [.text(zone.zoneName)]))
    }
}
#endif

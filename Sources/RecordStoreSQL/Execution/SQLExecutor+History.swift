import Foundation
@_spi(StorageEngine) import RecordStoreCore

// The change history every SQL engine keeps in the same tables (`TableLayout.historyTable`,
// the registry's and the zones' `position`, `tombstonesTable`, `deletedZonesTable`), written in
// the save's transaction and read in one snapshot. The engines create the tables.
extension SQLExecutor {
    private func table(_ name: String) -> String { dialect.quote(name) }


    // MARK: Writing

    /// Takes the commit's change position (``SQLDialect/nextChangePositionSQL``): the store's
    /// counter, whose row stays locked until the transaction ends, or the database's own number
    /// of the transaction (PostgreSQL).
    @_spi(StorageEngine) public func nextChangePosition<Connection: SQLConnection>(on connection: Connection) async throws -> Int64 {
        let statement = SQLStatement(dialect.nextChangePositionSQL, dialect: dialect)
        guard case .integer(let position)? = try await connection.firstRow(statement, { $0.value(at: 0) }) else {
            throw RecordStoreError.storage("the store's change history table has no row")
        }
        return position
    }

    /// Records a commit in the history (``RecordWriteTransaction/recordHistory(_:at:date:)``):
    /// updated records take the position (new ones were written with it), deleted ones leave
    /// tombstones, created ones lose any tombstone, and the zones touched take the position
    /// unless they hold a greater one (positions that are transaction IDs do not come in
    /// commit order: a zone keeps its commits' greatest).
    /// (PostgreSQL's saves that take their position after their writes do this in one
    /// statement of their own, `PostgresCommitStatement`.)
    @_spi(StorageEngine) public func recordHistory<Connection: SQLConnection>(
        _ changes: CommittedChanges, at position: Int64, date: Date, on connection: Connection
    ) async throws {
        let byZone = Dictionary(grouping: changes.entries, by: \.recordID.zoneID)
        for (zone, entries) in byZone.sorted(by: { $0.key.zoneName.utf8.lexicographicallyPrecedes($1.key.zoneName.utf8) }) {
            let key = SQLValue.text(TableLayout.zoneKey(zone))
            // In code-point order (the registry's), so that each chunk updates neighbouring rows.
            let positioned = entries.filter { $0.kind == .updated }.map(\.recordID.recordName).sorted()
            for chunk in Self.chunks(positioned) {
                try await connection.execute(SQLStatement(
                    "UPDATE \(table(TableLayout.registryTable)) SET position = ? WHERE zone = ? AND recordName IN (\(Self.placeholders(chunk.count)))",
                    [.integer(position), key] + chunk.map(SQLValue.text), dialect: dialect))
            }
            let created = entries.filter { $0.kind == .created }.map(\.recordID.recordName)
            // A zone without tombstones (any import into a fresh zone) has none to remove.
            var hasTombstones = false
            if !created.isEmpty {
                hasTombstones = try await connection.firstRow(SQLStatement(
                    "SELECT 1 FROM \(table(TableLayout.tombstonesTable)) WHERE zone = ? LIMIT 1", [key], dialect: dialect)) { _ in true } != nil
            }
            for chunk in Self.chunks(created) where hasTombstones {
                try await connection.execute(SQLStatement(
                    "DELETE FROM \(table(TableLayout.tombstonesTable)) WHERE zone = ? AND recordName IN (\(Self.placeholders(chunk.count)))",
                    [key] + chunk.map(SQLValue.text), dialect: dialect))
            }
            let deleted = entries.filter { $0.kind == .deleted }
            for chunk in Self.chunks(deleted) {
                var arguments: [SQLValue] = []
                for entry in chunk {
                    arguments += [key, .text(entry.recordID.recordName), .text(entry.recordType), .integer(position), .real(date.timeIntervalSinceReferenceDate)]
                }
                try await connection.execute(SQLStatement(
                    "INSERT INTO \(table(TableLayout.tombstonesTable)) (zone, recordName, recordType, position, deletedAt) VALUES "
                        + Array(repeating: "(?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                        + " ON CONFLICT (zone, recordName) DO UPDATE SET recordType = excluded.recordType, "
                        + "position = excluded.position, deletedAt = excluded.deletedAt",
                    arguments, dialect: dialect))
            }
            try await connection.execute(SQLStatement(
                "UPDATE \(table(TableLayout.zonesTable)) SET position = CASE WHEN position > ? THEN position ELSE ? END WHERE name = ?",
                [.integer(position), .integer(position), .text(zone.zoneName)], dialect: dialect))
        }
    }

    /// Creates a zone unless it exists: it takes a change position (its creation, for tokens
    /// and the database's zone changes), and an earlier deletion's tombstone goes.
    @_spi(StorageEngine) public func createZone<Connection: SQLConnection>(_ zone: ZoneID, on connection: Connection) async throws {
        guard try await !zoneExists(zone, on: connection) else { return }
        let position = try await nextChangePosition(on: connection)
        try await connection.execute(SQLStatement(
            "INSERT INTO \(table(TableLayout.zonesTable)) (name, position, created) VALUES (?, ?, ?)",
            [.text(zone.zoneName), .integer(position), .integer(position)], dialect: dialect))
        try await connection.execute(SQLStatement(
            "DELETE FROM \(table(TableLayout.deletedZonesTable)) WHERE name = ?", [.text(zone.zoneName)], dialect: dialect))
    }

    /// Records a zone's deletion (after the engine deleted its records and its row): its
    /// records' tombstones go with it, a zone tombstone stays.
    @_spi(StorageEngine) public func recordZoneDeletion<Connection: SQLConnection>(_ zone: ZoneID, date: Date, on connection: Connection) async throws {
        let position = try await nextChangePosition(on: connection)
        try await connection.execute(SQLStatement(
            "DELETE FROM \(table(TableLayout.tombstonesTable)) WHERE zone = ?", [.text(TableLayout.zoneKey(zone))], dialect: dialect))
        try await connection.execute(SQLStatement(
            "INSERT INTO \(table(TableLayout.deletedZonesTable)) (name, position, deletedAt) VALUES (?, ?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET position = excluded.position, deletedAt = excluded.deletedAt",
            [.text(zone.zoneName), .integer(position), .real(date.timeIntervalSinceReferenceDate)], dialect: dialect))
    }

    /// Drops the tombstones of deletions before `date` and raises the floor to the last
    /// position dropped; counts the tombstones dropped and kept.
    @_spi(StorageEngine) public func pruneHistory<Connection: SQLConnection>(
        deletedBefore date: Date, on connection: Connection
    ) async throws -> HistoryPruning {
        let cutoff = SQLValue.real(date.timeIntervalSinceReferenceDate)
        var highest: Int64 = 0
        var pruning = HistoryPruning(dropped: 0, kept: 0)
        for name in [TableLayout.tombstonesTable, TableLayout.deletedZonesTable] {
            let statement = SQLStatement(
                "SELECT max(position) FILTER (WHERE deletedAt < ?), count(*) FILTER (WHERE deletedAt < ?), count(*) FROM \(table(name))",
                [cutoff, cutoff], dialect: dialect)
            let row = try await connection.firstRow(statement) { ($0.value(at: 0), $0.value(at: 1).integerValue ?? 0, $0.value(at: 2).integerValue ?? 0) }
            guard let (maximum, dropped, all) = row else { continue }
            if case .integer(let position) = maximum { highest = max(highest, position) }
            pruning.dropped += Int(dropped)
            pruning.kept += Int(all - dropped)
        }
        guard highest > 0 else { return pruning }
        for name in [TableLayout.tombstonesTable, TableLayout.deletedZonesTable] {
            try await connection.execute(SQLStatement("DELETE FROM \(table(name)) WHERE deletedAt < ?", [cutoff], dialect: dialect))
        }
        try await connection.execute(SQLStatement(
            "UPDATE \(table(TableLayout.historyTable)) SET floor = ? WHERE id = 1 AND floor < ?", [.integer(highest), .integer(highest)], dialect: dialect))
        return pruning
    }

    // MARK: Reading

    /// A zone's history after a place (``StorageEngine/history(of:after:limit:recordTypes:)``),
    /// in the snapshot of the caller's transaction: the registry's and the tombstones' entries
    /// by position (each an index range), merged, then the saved records, read by type.
    ///
    /// `bound`, when given, is the last position to read and the floor, found before the
    /// snapshot began (positions that do not commit in order, ``SQLDialect/nextChangePositionSQL``):
    /// the page ends there, or at `place` when that is further. Without it, every position the
    /// snapshot sees is read, up to the store's counter.
    ///
    /// ```swift
    /// let bound = try await PostgresChangePositions.bound(on: connection)   // before BEGIN
    /// let page = try await executor.history(of: zone, after: place, limit: 100, recordTypes: nil,
    ///                                       bound: (bound.position, bound.floor), on: connection)
    /// page.entries.count   // at most 101, none past bound.position
    /// ```
    @_spi(StorageEngine) public func history<Connection: SQLConnection>(
        of zone: ZoneID, after place: HistoryPosition, limit: Int, recordTypes: Set<String>?,
        bound: (position: Int64, floor: Int64)? = nil, on connection: Connection
    ) async throws -> HistoryPage {
        let created = try await connection.firstRow(SQLStatement(
            "SELECT created FROM \(table(TableLayout.zonesTable)) WHERE name = ?", [.text(zone.zoneName)], dialect: dialect)) { $0.value(at: 0) }
        guard let created else { throw RecordStoreError.zoneNotFound(zone) }
        let (position, floor) = try await historyBounds(bound, after: place, on: connection)
        var page = HistoryPage(entries: [], records: [:], position: position, floor: floor, zoneCreated: created.integerValue ?? 0)
        guard limit > 0 else { return page }
        let key = SQLValue.text(TableLayout.zoneKey(zone))
        var entries: [HistoryEntry] = []
        for (name, isDeletion) in [(TableLayout.registryTable, false), (TableLayout.tombstonesTable, true)] {
            var sql = "SELECT recordName, recordType, position FROM \(table(name)) WHERE zone = ?"
            var arguments: [SQLValue] = [key]
            Self.appendAfter(place, column: "recordName", upTo: bound?.position, to: &sql, arguments: &arguments)
            if let recordTypes {
                guard !recordTypes.isEmpty else { continue }
                sql += " AND recordType IN (\(Self.placeholders(recordTypes.count)))"
                arguments += recordTypes.sorted().map(SQLValue.text)
            }
            sql += " ORDER BY position, recordName LIMIT ?"
            arguments.append(.integer(Int64(limit + 1)))
            try await connection.forEachRow(SQLStatement(sql, arguments, dialect: dialect)) { row in
                if case .text(let recordName) = row.value(at: 0), case .text(let recordType) = row.value(at: 1),
                   let position = row.value(at: 2).integerValue {
                    entries.append(HistoryEntry(recordName: recordName, recordType: recordType, position: position, isDeletion: isDeletion))
                }
                return true
            }
        }
        entries.sort { $0.place < $1.place }
        page.entries = Array(entries.prefix(limit + 1))
        page.records = try await savedRecords(page.entries, zone: zone, on: connection)
        return page
    }

    /// The database's zone history after a place (``StorageEngine/zoneHistory(after:limit:)``),
    /// up to `bound` when given (as ``history(of:after:limit:recordTypes:bound:on:)``).
    ///
    /// ```swift
    /// let page = try await executor.zoneHistory(after: place, limit: 100, bound: (bound.position, bound.floor), on: connection)
    /// ```
    @_spi(StorageEngine) public func zoneHistory<Connection: SQLConnection>(
        after place: HistoryPosition, limit: Int, bound: (position: Int64, floor: Int64)? = nil, on connection: Connection
    ) async throws -> ZoneHistoryPage {
        let (position, floor) = try await historyBounds(bound, after: place, on: connection)
        var entries: [ZoneHistoryEntry] = []
        for (name, isDeletion) in [(TableLayout.zonesTable, false), (TableLayout.deletedZonesTable, true)] {
            var sql = "SELECT name, position FROM \(table(name)) WHERE 1 = 1"
            var arguments: [SQLValue] = []
            Self.appendAfter(place, column: "name", upTo: bound?.position, to: &sql, arguments: &arguments)
            sql += " ORDER BY position, name LIMIT ?"
            arguments.append(.integer(Int64(limit + 1)))
            try await connection.forEachRow(SQLStatement(sql, arguments, dialect: dialect)) { row in
                if case .text(let zoneName) = row.value(at: 0), let position = row.value(at: 1).integerValue {
                    entries.append(ZoneHistoryEntry(zone: ZoneID(zoneName: zoneName), position: position, isDeletion: isDeletion))
                }
                return true
            }
        }
        entries.sort { $0.place < $1.place }
        return ZoneHistoryPage(entries: Array(entries.prefix(limit + 1)), position: position, floor: floor)
    }

    /// Where a page ends and the history's floor: the bound given (or the place, when further),
    /// else the store's counter and floor, read in the snapshot.
    private func historyBounds<Connection: SQLConnection>(
        _ bound: (position: Int64, floor: Int64)?, after place: HistoryPosition, on connection: Connection
    ) async throws -> (position: Int64, floor: Int64) {
        if let bound { return (max(bound.position, place.position), bound.floor) }
        let bounds = try await connection.firstRow(SQLStatement(
            "SELECT position, floor FROM \(table(TableLayout.historyTable)) WHERE id = 1", dialect: dialect)) { row in
            (row.value(at: 0).integerValue ?? 0, row.value(at: 1).integerValue ?? 0)
        }
        return bounds ?? (0, 0)
    }

    /// The saved versions of the entries that are not deletions: one statement per record type
    /// (and chunk of names).
    private func savedRecords<Connection: SQLConnection>(_ entries: [HistoryEntry], zone: ZoneID, on connection: Connection) async throws -> [String: Record] {
        let saved = entries.filter { !$0.isDeletion }
        guard !saved.isEmpty else { return [:] }
        let catalog = try await catalog(on: connection)
        var records: [String: Record] = [:]
        for (recordType, members) in Dictionary(grouping: saved, by: \.recordType) {
            guard let schema = catalog.recordTypes[recordType] else { continue }
            let reader = RecordRowReader(schema: schema, zone: zone, dialect: dialect)
            for chunk in Self.chunks(members.map(\.recordName)) {
                let statement = SQLStatement(
                    "SELECT \(reader.selection) FROM \(table(TableLayout.recordTable(recordType))) AS t "
                        + "WHERE t.\(table(TableLayout.zoneColumn)) = ? AND t.\(table(TableLayout.recordNameColumn)) IN (\(Self.placeholders(chunk.count)))",
                    [.text(TableLayout.zoneKey(zone))] + chunk.map(SQLValue.text), dialect: dialect)
                try await connection.forEachRow(statement) { row in
                    let record = try reader.record(from: row)
                    records[record.recordID.recordName] = record
                    return true
                }
            }
        }
        return records
    }

    /// Adds "after this place" (and "up to this position", when given) to a WHERE clause: a
    /// range on (position, name), which the (zone, position, name) index serves.
    private static func appendAfter(_ place: HistoryPosition, column: String, upTo bound: Int64?, to sql: inout String, arguments: inout [SQLValue]) {
        if let name = place.name {
            sql += " AND (position, \(column)) > (?, ?)"
            arguments += [.integer(place.position), .text(name)]
        } else {
            sql += " AND position > ?"
            arguments.append(.integer(place.position))
        }
        if let bound {
            sql += " AND position <= ?"
            arguments.append(.integer(bound))
        }
    }

    private static func chunks<Element>(_ items: [Element]) -> [ArraySlice<Element>] {
        stride(from: 0, to: items.count, by: lookupChunk).map { items[$0..<min($0 + lookupChunk, items.count)] }
    }
}

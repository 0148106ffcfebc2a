@_spi(StorageEngine) import RecordStoreCore

/// A ``RecordWriteTransaction`` of a SQL engine: the reads a save makes that every SQL engine
/// answers alike, through its ``SQLExecutor`` on the transaction's connection (the stored
/// records, the records references and uniqueness constraints reach, the zones that exist).
/// An engine conforms with its executor and connection, and writes the rest itself: the
/// catalog read, the stored versions, the schema changes and the writes.
///
/// ```swift
/// struct SQLiteWriteTransaction: SQLWriteTransaction {
///     let executor: SQLExecutor
///     var connection: SQLiteConnection { SQLiteConnection(db) }
///     // readCatalog(), storedVersions(of:), apply(_:catalog:), …
/// }
/// ```
@_spi(StorageEngine) public protocol SQLWriteTransaction: RecordWriteTransaction {
    /// The connection type the executor runs the transaction's statements on.
    associatedtype Connection: SQLConnection
    /// The engine's executor (its dialect's planner and statements).
    var executor: SQLExecutor { get }
    /// The connection the transaction runs on.
    var connection: Connection { get }
}

extension SQLWriteTransaction {
    @_spi(StorageEngine) public func storedRecords(_ ids: [RecordID]) async throws -> [RecordID: Record] {
        try await executor.records(for: ids, on: connection)
    }

    @_spi(StorageEngine) public func records(matching lookup: ReferenceLookup) async throws -> [Record] {
        try await executor.records(matching: lookup, on: connection)
    }

    @_spi(StorageEngine) public func records(matching lookup: UniquenessLookup) async throws -> [Record] {
        try await executor.records(matching: lookup, on: connection)
    }

    @_spi(StorageEngine) public func existingZones(among zones: Set<ZoneID>) async throws -> Set<ZoneID> {
        try await executor.existingZones(among: zones, on: connection)
    }
}

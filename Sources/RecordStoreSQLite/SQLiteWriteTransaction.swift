import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// A SQLite write transaction as ``SaveProcedure`` uses it: the catalog, the registry of
/// stored records, the zones, the schema storage and the record writer, all on one connection.
///
/// ```swift
/// try pool.write { db in
///     try SQLiteConnection.run(db) { _ in
///         var transaction = SQLiteWriteTransaction(db: db, executor: executor)
///         return try await SaveProcedure.run(changes, mode: .development, in: &transaction)
///     }
/// }
/// ```
struct SQLiteWriteTransaction: SQLWriteTransaction {
    let db: Database
    let executor: SQLExecutor
    private let storage = SQLiteSchemaStorage()
    var connection: SQLiteConnection { SQLiteConnection(db) }

    init(db: Database, executor: SQLExecutor) {
        self.db = db
        self.executor = executor
    }

    func readCatalog() async throws -> SchemaCatalog {
        try await executor.catalog(on: connection)
    }

    func storedVersions(of ids: [RecordID]) throws -> [RecordID: StoredVersion] {
        try SQLiteStoredVersions.read(ids, db)
    }

    func applySchemaChanges(_ changes: [SchemaChange], catalog: SchemaCatalog) throws {
        try storage.apply(changes, catalog: catalog, db)
        try connection.execute(executor.saveCatalogStatement(catalog))
    }

    func nextChangePosition() async throws -> Int64 {
        try await executor.nextChangePosition(on: connection)
    }

    func apply(_ plan: WritePlan, catalog: SchemaCatalog) throws {
        try SQLiteRecordWriter(db: db, catalog: catalog).apply(plan)
    }

    func recordHistory(_ changes: CommittedChanges, at position: Int64, date: Date) async throws {
        try await executor.recordHistory(changes, at: position, date: date, on: connection)
    }

    func logCommit(_ changes: CommittedChanges) throws -> Int64 {
        try SQLiteChangeLog.append(changes, db)
    }
}

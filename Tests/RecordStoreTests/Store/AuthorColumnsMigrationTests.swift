import EngineTestSupport
import Foundation
import GRDB
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@testable import RecordStorePostgres
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// Issue #46: record tables have the creator and last modifier columns
/// (``TableLayout/creatorColumn``, ``TableLayout/lastModifierColumn``). A store written before
/// they existed opens with them added: its records have no authors, and new saves name theirs.
@Suite("The author columns' migration")
struct AuthorColumnsMigrationTests {
    static func city(_ name: String, population: Int64) -> RecordStore.Record {
        RecordStore.Record(recordType: "City", recordID: RecordID(recordName: name), fields: ["name": .string(name), "population": .int(population)])
    }

    static func seed(_ store: Store) async throws {
        _ = try await store.save([city("Paris", population: 2_100_000), city("Lyon", population: 520_000)])
    }

    /// The reopened store: old records without authors, an update and a new record with theirs.
    static func checkMigrated(_ store: Store) async throws {
        var paris = try #require(try await store.record(for: RecordID(recordName: "Paris")))
        #expect(paris.creatorUserRecordName == nil)
        #expect(paris.lastModifiedUserRecordName == nil)
        paris["population"] = .int(2_200_000)
        #expect(try await store.modify(saving: [paris, city("Nice", population: 340_000)], deleting: [], author: "_ada").isSuccess)
        let updated = try #require(try await store.record(for: RecordID(recordName: "Paris")))
        #expect(updated.creatorUserRecordName == nil)
        #expect(updated.lastModifiedUserRecordName == "_ada")
        let byAda = try await store.records(ofType: "City", matching: FormatPredicate(format: "creatorUserRecordName == '_ada'"))
        #expect(byAda.map(\.recordID.recordName) == ["Nice"])
        let changedByAda = try await store.records(
            ofType: "City", matching: FormatPredicate(format: "lastModifiedUserRecordName == '_ada'"), sorts: [Sort("name")])
        #expect(changedByAda.map(\.recordID.recordName) == ["Nice", "Paris"])
    }

    @Test("SQLite: a layout-5 file, without the author columns, is migrated when opened")
    func sqlite() async throws {
        let path = TestEngine.temporaryDatabasePath("author-columns")
        try await Self.seed(try Store.open(path: path))
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: #"ALTER TABLE "City" DROP COLUMN "$creatorUserRecordName""#)
            try db.execute(sql: #"ALTER TABLE "City" DROP COLUMN "$lastModifiedUserRecordName""#)
            try db.execute(sql: #"UPDATE "$metadata" SET value = 5 WHERE name = 'layoutVersion'"#)
        }
        try queue.close()

        try await Self.checkMigrated(try Store.open(path: path))
        let stored = try await DatabaseQueue(path: path).read { db in
            (try db.columns(in: "City").map(\.name).filter { $0.hasSuffix("UserRecordName") },
             try Int64.fetchOne(db, sql: #"SELECT value FROM "$metadata" WHERE name = 'layoutVersion'"#))
        }
        #expect(stored.0 == ["$creatorUserRecordName", "$lastModifiedUserRecordName"])
        #expect(stored.1 == SQLiteLayoutMigration.currentVersion)
    }

    @Test(
        "PostgreSQL: a layout-3 store, without the author columns, is migrated when opened",
        .enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
    func postgres() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        try await Self.seed(try await Store.open(url: url))
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        try await engine.write { connection in
            try await connection.execute(SQLStatement(
                sql: #"ALTER TABLE "City" DROP COLUMN "$creatorUserRecordName", DROP COLUMN "$lastModifiedUserRecordName""#))
            try await connection.execute(SQLStatement(sql: #"UPDATE "$metadata" SET value = '3'::bytea WHERE name = 'layoutVersion'"#))
        }
        try await Self.checkMigrated(try await Store.open(url: url))
        let after = try await PostgresEngine.open(try PostgresLocation(url))
        let version = try await after.read { connection in try await PostgresLayoutMigration(connection: connection).storedVersion() }
        #expect(version == PostgresLayoutMigration.currentVersion)
    }
}

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

/// Issue #29: record tables and the registry store the default zone as the empty string
/// (``TableLayout/zoneKey(_:)``). A store written when they held its name opens, reads, queries,
/// updates and deletes as before, and holds the key afterwards; other zones keep their names.
@Suite("The default zone's stored key")
struct ZoneKeyMigrationTests {
    static let archive = ZoneID(zoneName: "Archive")

    static func city(_ name: String, zone: ZoneID = .default, population: Int64) -> RecordStore.Record {
        RecordStore.Record(
            recordType: "City", recordID: RecordID(recordName: name, zoneID: zone),
            fields: ["name": .string(name), "population": .int(population)])
    }

    /// What the tests check on the reopened store, the same for both engines.
    static func checkMigrated(_ store: Store) async throws {
        #expect(try await store.record(for: RecordID(recordName: "Paris"))?["population"] == .int(2_100_000))
        let large = try await store.records(ofType: "City", matching: FormatPredicate(format: "population > 500000"))
        #expect(large.map(\.recordID.recordName) == ["Paris", "Lyon"].sorted())
        let archived = try await store.records(ofType: "City", matching: FormatPredicate(format: "TRUEPREDICATE"), zone: archive)
        #expect(archived.map(\.recordID.recordName) == ["Nice"])
        // Updates find the stored row (no second row), and deletes remove it.
        var paris = try #require(try await store.record(for: RecordID(recordName: "Paris")))
        paris["population"] = .int(2_200_000)
        _ = try await store.save([paris])
        #expect(try await store.count(ofType: "City", matching: FormatPredicate(format: "name == 'Paris'")) == 1)
        _ = try await store.delete([RecordID(recordName: "Lyon")])
        #expect(try await store.record(for: RecordID(recordName: "Lyon")) == nil)
        #expect(try await store.count(ofType: "City", matching: FormatPredicate(format: "TRUEPREDICATE")) == 1)
    }

    static func seed(_ store: Store) async throws {
        try await store.createZone(archive)
        _ = try await store.save([
            city("Paris", population: 2_100_000), city("Lyon", population: 520_000),
            city("Nice", zone: archive, population: 340_000),
        ])
    }

    @Test("SQLite: a layout-3 file, with the default zone spelled out, is migrated when opened")
    func sqlite() async throws {
        let path = TestEngine.temporaryDatabasePath("zone-key")
        try await Self.seed(try Store.open(path: path))
        let queue = try DatabaseQueue(path: path)
        #expect(try await queue.read { db in try String.fetchAll(db, sql: #"SELECT DISTINCT "$zone" FROM "City" ORDER BY 1"#) } == ["", "Archive"])
        try await queue.write { db in
            try db.execute(sql: #"UPDATE "City" SET "$zone" = '_defaultZone' WHERE "$zone" = ''"#)
            try db.execute(sql: #"UPDATE "$records" SET zone = '_defaultZone' WHERE zone = ''"#)
            try db.execute(sql: #"UPDATE "$metadata" SET value = 3 WHERE name = 'layoutVersion'"#)
        }
        try queue.close()

        try await Self.checkMigrated(try Store.open(path: path))
        let stored = try await DatabaseQueue(path: path).read { db in
            (try String.fetchAll(db, sql: #"SELECT DISTINCT zone FROM "$records" ORDER BY 1"#),
             try Int64.fetchOne(db, sql: #"SELECT value FROM "$metadata" WHERE name = 'layoutVersion'"#))
        }
        #expect(stored.0 == ["", "Archive"])
        #expect(stored.1 == SQLiteLayoutMigration.currentVersion)
    }

    @Test(
        "PostgreSQL: a store without a layout version, with the default zone spelled out, is migrated when opened",
        .enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
    func postgres() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        try await Self.seed(try await Store.open(url: url))
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        try await engine.write { connection in
            try await connection.execute(SQLStatement(sql: #"UPDATE "City" SET "$zone" = '_defaultZone' WHERE "$zone" = ''"#))
            try await connection.execute(SQLStatement(sql: #"UPDATE "$records" SET zone = '_defaultZone' WHERE zone = ''"#))
            try await connection.execute(SQLStatement(sql: #"DELETE FROM "$metadata" WHERE name = 'layoutVersion'"#))
        }
        try await Self.checkMigrated(try await Store.open(url: url))
        let zones = try await engine.write { connection in
            var zones: [String] = []
            try await connection.forEachRow(SQLStatement(sql: #"SELECT DISTINCT zone FROM "$records" ORDER BY 1"#)) { row in
                if case .text(let zone) = row.value(at: 0) { zones.append(zone) }
                return true
            }
            return zones
        }
        #expect(zones == ["", "Archive"])
    }
}

import EngineTestSupport
import Foundation
import GRDB
import PredicateLanguage
import RecordStorePostgres
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// `Store.open(url:)` picks the engine from the location's scheme, and an older SQLite layout
/// is brought up to date when the store opens.
@Suite("Opening stores by location")
struct StoreOpeningTests {
    static func item(_ name: String, tags: [String] = []) -> RecordStore.Record {
        RecordStore.Record(recordType: "Item", recordID: RecordID(recordName: name), fields: ["title": .string(name), "tags": .list(tags.map(Value.string))])
    }

    @Test("A path, sqlite: and file: locations open the same SQLite file")
    func sqliteLocations() async throws {
        let path = TestEngine.temporaryDatabasePath("opening")
        let byPath = try await Store.open(url: path)
        #expect(byPath.engineName == "sqlite")
        try await byPath.save([Self.item("one")])
        for location in ["sqlite:\(path)", "sqlite://\(path)", "file://\(path)", "SQLite:\(path)"] {
            let store = try await Store.open(url: location)
            #expect(store.engineName == "sqlite", "\(location)")
            #expect(try await store.record(for: RecordID(recordName: "one"))?["title"] == "one", "\(location)")
        }
        // Percent escapes are decoded: a space written %20 opens the file with a space.
        let spaced = TestEngine.temporaryDatabasePath("with space")
        try await Store.open(url: spaced).save([Self.item("two")])
        let escaped = try await Store.open(url: "file://" + spaced.replacingOccurrences(of: " ", with: "%20"))
        #expect(try await escaped.count(ofType: "Item", matching: .truePredicate) == 1)
    }

    @Test("memory: opens a new, empty store in memory")
    func memoryLocation() async throws {
        let store = try await Store.open(url: "memory:")
        #expect(store.engineName == "memory")
        #expect(try await store.schema() == [])
    }

    @Test("An unknown scheme or a malformed location is a clear error")
    func badLocations() async throws {
        // The registry names what is registered, local kinds before servers and by name within
        // each, whatever the order of registration. A private registry gives the exact message;
        // the shared one also holds what other test targets of this process registered.
        let registry = StoreRegistry()
        for scheme in [StoreScheme.postgres, .memory, .sqlite, .portableForMessages] { registry.register(scheme) }
        #expect(throws: RecordStoreError.invalidStoreLocation(
            "ftp://localhost/cities",
            reason: "unknown scheme 'ftp'; this build opens a file path, sqlite:PATH, file:///PATH, memory:, sqlite-portable:PATH or postgres://user:password@host:port/database")) {
            try registry.scheme(for: StoreLocation("ftp://localhost/cities"))
        }
        TestEngine.registerEngines()
        let error = await #expect(throws: RecordStoreError.self) { try await Store.open(url: "ftp://localhost/cities") }
        guard case .invalidStoreLocation(let location, let reason)? = error else {
            Issue.record("expected invalidStoreLocation, got \(String(describing: error))")
            return
        }
        #expect(location == "ftp://localhost/cities")
        #expect(reason.hasPrefix("unknown scheme 'ftp'; this build opens a file path, sqlite:PATH, file:///PATH, "), "\(reason)")
        #expect(reason.hasSuffix(" or postgres://user:password@host:port/database"), "\(reason)")
        let cases: [(String, RecordStoreError)] = [
            ("sqlite://server/cities.sqlite", .invalidStoreLocation(
                "sqlite://server/cities.sqlite",
                reason: "a sqlite location names a local file: write sqlite:///absolute/path or sqlite:relative/path")),
            ("sqlite:", .invalidStoreLocation("sqlite:", reason: "the sqlite location has no file path")),
            ("", .invalidStoreLocation("", reason: "the location is empty")),
        ]
        for (location, expected) in cases {
            await #expect(throws: expected, "\(location)") { try await Store.open(url: location) }
        }
        #expect(RecordStoreError.invalidStoreLocation("x:y", reason: "why").description == "Cannot open a store at 'x:y': why")
    }

    @Test("A scheme no library registered is unknown; once registered, it opens")
    func registeredSchemes() async throws {
        let registry = StoreRegistry()
        #expect(throws: RecordStoreError.invalidStoreLocation(
            "memory:", reason: "unknown scheme 'memory'; this build opens nothing: no engine is registered (an engine library registers its own: StoreRegistry.shared.register(...))")) {
            try registry.scheme(for: StoreLocation("memory:"))
        }
        registry.register(.memory)
        #expect(try registry.scheme(for: StoreLocation("MEMORY:")).names == ["memory"])
        #expect(registry.isRegistered("memory") && !registry.isRegistered("sqlite"))
    }

    @Test("A one-letter scheme is a drive-like path, not a scheme")
    func oneLetterPrefixIsAPath() throws {
        #expect(try StoreLocation("c:cities.sqlite").scheme == nil)
        #expect(try StoreLocation("c:cities.sqlite").sqliteFile == "c:cities.sqlite")
        #expect(try StoreLocation("./cities.sqlite").sqliteFile == "./cities.sqlite")
        #expect(try StoreLocation("sqlite:///tmp/a%20b.sqlite").sqliteFile == "/tmp/a b.sqlite")
        #expect(try StoreLocation("memory:").sqliteFile == nil)
    }

    @Test("A layout-0 file (lists as member counts) is migrated when opened, and queries see its lists")
    func layoutZeroIsMigrated() throws {
        let path = TestEngine.temporaryDatabasePath("layout0")
        do {
            let store = try Store.open(path: path)
            // Layout 0 kept every list's members in the list table, as a queryable list's are now.
            try store.define(RecordTypeSchema(name: "Item", justInTimeIndexes: .all))
            try store.save([Self.item("a", tags: ["red", "blue"]), Self.item("b", tags: []), Self.item("c", tags: ["green"])])
        }
        // Rewrite the file as version 0 wrote it: the row holds the member count; no layout version.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: #"UPDATE "Item" SET "tags" = (SELECT count(*) FROM "Item$list" AS l WHERE l.record = "Item".rowid AND l.field = 'tags')"#)
            try db.execute(sql: #"DELETE FROM "$metadata" WHERE name = 'layoutVersion'"#)
        }
        let counts = try queue.read { db in try Int64.fetchAll(db, sql: #"SELECT "tags" FROM "Item" ORDER BY "$recordName""#) }
        #expect(counts == [2, 0, 1])
        try queue.close()

        let reopened = try Store.open(path: path)
        #expect(try reopened.record(for: RecordID(recordName: "a"))?["tags"] == .list(["red", "blue"]))
        #expect(try reopened.record(for: RecordID(recordName: "b"))?["tags"] == .list([]))
        let green = try reopened.records(ofType: "Item", matching: FormatPredicate(format: "'green' IN tags"))
        #expect(green.map(\.recordID.recordName) == ["c"])
        let version = try DatabaseQueue(path: path).read { db in
            try Int64.fetchOne(db, sql: #"SELECT value FROM "$metadata" WHERE name = 'layoutVersion'"#)
        }
        #expect(version == SQLiteLayoutMigration.currentVersion)
    }
}

extension StoreScheme {
    /// A scheme that only lends its name and usage to the message test: it opens nothing.
    fileprivate static let portableForMessages = StoreScheme(
        names: ["sqlite-portable"], usage: "sqlite-portable:PATH", answersSynchronously: true
    ) { location, _ throws(RecordStoreError) in
        throw .invalidStoreLocation(location.text, reason: "only for the message test")
    }
}

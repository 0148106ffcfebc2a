import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@testable import RecordStorePostgres
@_spi(StorageEngine) @testable import RecordStoreSQL
import Testing

/// Index builds outside the statements that write rows, on PostgreSQL: a bulk import builds the
/// indexes of a new record type at its end (and a store left in the middle of one builds them
/// when opened); a schema change on a populated table builds its new indexes concurrently after
/// it committed (and a build left pending is finished when the store is opened). Every answer
/// stays the same meanwhile, and the indexes in the end are exactly those of a store that never
/// deferred any.
@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
struct PostgresIndexBuildTests {
    /// The indexes of the record types' tables, by name: their definitions (without the
    /// schema's name), marked `INVALID` when a concurrent build failed. The store's own tables
    /// (`$records`, `$zones`, the history's) keep fixed indexes and are left out.
    static func indexes(_ url: String) async throws -> [String: String] {
        try await indexes(PostgresEngine.open(try PostgresLocation(url)))
    }

    /// The indexes, through an engine already open (opening one finishes the builds left).
    static func indexes(_ engine: PostgresEngine) async throws -> [String: String] {
        try await engine.read { connection in
            var indexes: [String: String] = [:]
            try await connection.forEachRow(SQLStatement(sql: """
                SELECT i.indexname, replace(i.indexdef, current_schema() || '.', ''), x.indisvalid::integer
                FROM pg_indexes i JOIN pg_index x ON x.indexrelid = to_regclass(quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))
                WHERE i.schemaname = current_schema() AND left(i.tablename, 1) <> '$'
                """)) { row in
                if case .text(let name) = row.value(at: 0), case .text(let definition) = row.value(at: 1) {
                    indexes[name] = row.value(at: 2) == .integer(1) ? definition : "INVALID " + definition
                }
                return true
            }
            return indexes
        }
    }

    /// The index-build marks left in `$metadata`.
    static func marks(_ engine: PostgresEngine) async throws -> [String] {
        try await engine.read { connection in
            var marks: [String] = []
            try await connection.forEachRow(SQLStatement(sql: #"SELECT name FROM "$metadata" WHERE name LIKE '%Indexes:%' ORDER BY name"#)) { row in
                if case .text(let name) = row.value(at: 0) { marks.append(name) }
                return true
            }
            return marks
        }
    }

    /// The record names each of ``IndexTypeTests/queries`` selects, in order.
    static func answers(_ store: Store) async throws -> [[String]] {
        let lyon = Location(latitude: 45.74846, longitude: 4.84671)
        var answers: [[String]] = []
        for query in IndexTypeTests.queries {
            let predicate = try FormatPredicate(format: query.format, argumentArray: query.format.contains("%@") ? [.location(lyon)] : [])
            answers.append(try await store.records(ofType: "Place", matching: predicate, sorts: query.sorts).map(\.recordID.recordName))
        }
        return answers
    }

    /// A store of ``IndexTypeTests/places``, saved after declaring them so, and its URL.
    static func placesStore(queryable: Bool, sortable: Bool) async throws -> (Store, String) {
        let url = try PostgresTestServer.freshStoreURL()
        let store = try await Store.open(url: url)
        try await store.define(IndexTypeTests.schema(queryable: queryable, sortable: sortable))
        _ = try await store.save(IndexTypeTests.places)
        return (store, url)
    }

    @Test func anImportEndsWithTheIndexesOfSavedRecords() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pg-index-import-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let lines = (0..<400).map { number in
            #"{"id": "c\#(number)", "name": "City \#(number)", "population": \#(number * 37), "capital": \#(number.isMultiple(of: 9)), "#
                + #""names": ["n\#(number)", "Ville \#(number % 7)"], "latitude": \#(Double(number % 80) + 0.5), "longitude": \#(Double(number % 170) - 0.25)}"#
        }
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let imported = try PostgresTestServer.freshStoreURL()
        let importStore = try await Store.open(url: imported)
        var importer = RecordImporter(recordType: "City")
        importer.idField = "id"
        importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
        importer.batchSize = 50
        importer.justInTimeIndexes = .all
        let steps = LockedState<[StoreOpeningProgress]>([])
        importer.indexProgress = { step in steps.withLock { $0.append(step) } }
        #expect(try await importer.importFile(at: file.path, into: importStore).recordCount == 400)
        let built = try await Self.indexes(imported)
        let last = try #require(steps.withLock { $0.last })
        #expect(last.completed == last.total && last.total > 10)

        let saved = try PostgresTestServer.freshStoreURL()
        let saveStore = try await Store.open(url: saved)
        let schema = try #require(try await importStore.schema(for: "City"))
        try await saveStore.define(schema)
        let records = try await importStore.records(ofType: "City", matching: FormatPredicate(format: "TRUEPREDICATE"))
        _ = try await saveStore.save(records.map { Record(recordType: "City", recordID: $0.recordID, fields: $0.fields) })
        #expect(built == (try await Self.indexes(saved)))
        #expect(built.keys.contains(PostgresLayout.locationIndex("City", field: "location")))
        #expect(built.keys.contains(PostgresLayout.fullTextIndex("City")))
        #expect(built.keys.contains(PostgresLayout.listIndex("City", field: "names", column: "value")))
        #expect(!built.values.contains { $0.hasPrefix("INVALID") })
        #expect(try await Self.marks(PostgresEngine.open(try PostgresLocation(imported))).isEmpty)
    }

    @Test func queriesAnswerExactlyWhileALoadDefersAndTheNextOpenBuilds() async throws {
        let (store, url) = try await Self.placesStore(queryable: true, sortable: true)
        let expected = try await Self.answers(store)
        let complete = try await Self.indexes(url)
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        try await engine.beginBulkLoad(of: "Place", incoming: 1_000)
        #expect(try await Self.marks(engine) == ["deferredIndexes:Place"])
        let deferred = try await Self.indexes(engine)
        #expect(deferred.count < complete.count)
        #expect(deferred.keys.allSatisfy { $0.hasSuffix("_pkey") || $0.hasSuffix("_key") || $0.hasSuffix("$record$index") })
        #expect(try await Self.answers(store) == expected)
        // A field arriving just in time builds no index while the load defers them.
        _ = try await store.save([Record(recordType: "Place", recordID: RecordID(recordName: "x"), fields: ["code": .string("X")])])
        #expect(try await Self.indexes(engine).count == deferred.count)
        try await store.delete([RecordID(recordName: "x")])
        #expect(try await Self.answers(store) == expected)
        // The process dies here: opening the store builds the indexes.
        let steps = LockedState<[StoreOpeningProgress]>([])
        let reopened = try await Store.open(url: url) { step in steps.withLock { $0.append(step) } }
        let rebuilt = try await Self.indexes(engine)
        let (reference, referenceURL) = try await Self.placesStore(queryable: true, sortable: true)
        _ = try await reference.save([Record(recordType: "Place", recordID: RecordID(recordName: "x"), fields: ["code": .string("X")])])
        #expect(rebuilt == (try await Self.indexes(referenceURL)))
        #expect(rebuilt.count >= complete.count)
        #expect(!rebuilt.values.contains { $0.hasPrefix("INVALID") })
        #expect(try await Self.marks(engine).isEmpty)
        #expect(!steps.withLock { $0 }.isEmpty)
        #expect(try await Self.answers(reopened) == expected)
    }

    @Test func indexChangesOnAPopulatedStoreEndWithTheIndexesOfTheLastDeclaration() async throws {
        let (store, _) = try await Self.placesStore(queryable: true, sortable: true)
        let expected = try await Self.answers(store)
        for (queryable, sortable) in [(false, false), (true, false), (true, true), (false, true)] {
            try await store.define(IndexTypeTests.schema(queryable: queryable, sortable: sortable))
            #expect(try await Self.answers(store) == expected)
            let (_, fresh) = try await Self.placesStore(queryable: queryable, sortable: sortable)
            let engine = try #require(store.engine as? PostgresEngine)
            let indexes = try await Self.indexes(engine)
            #expect(try await Self.marks(engine).isEmpty)
            #expect(indexes == (try await Self.indexes(fresh)), "queryable \(queryable), sortable \(sortable)")
            #expect(!indexes.values.contains { $0.hasPrefix("INVALID") })
        }
    }

    @Test func aChangeOnAPopulatedStoreTellsProgressOfEachIndexItBuilds() async throws {
        let (store, url) = try await Self.placesStore(queryable: false, sortable: false)
        let steps = LockedState<[StoreOpeningProgress]>([])
        try await store.define(IndexTypeTests.schema(queryable: true, sortable: true)) { step in steps.withLock { $0.append(step) } }
        let reported = steps.withLock { $0 }
        let secondary = try await Self.indexes(url).keys.filter { !($0.hasSuffix("_pkey") || $0.hasSuffix("_key") || $0.hasSuffix("$record$index")) }
        #expect(!secondary.isEmpty)
        #expect(reported.map(\.completed) == Array(1...max(secondary.count, 1)))
        #expect(reported.allSatisfy { $0.total == secondary.count && $0.task == "Building the indexes of Place" && $0.unit == "indexes" })
    }

    @Test func aPendingBuildLeftBehindIsFinishedWhenTheStoreOpens() async throws {
        let (store, url) = try await Self.placesStore(queryable: true, sortable: true)
        let expected = try await Self.answers(store)
        let complete = try await Self.indexes(url)
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        let missing = TableLayout.fieldIndex("Place", field: "population")
        let invalid = TableLayout.fieldIndex("Place", field: "name")
        try await engine.write { connection in
            try await PostgresStoreMetadata(connection: connection).mark(.pending, "Place")
            for index in [missing, invalid] {
                try await connection.execute(SQLStatement(sql: "DROP INDEX \(PostgresDialect.quote(index))"))
            }
        }
        // A concurrent build that failed leaves an invalid index (here: not unique).
        await #expect(throws: (any Error).self) {
            try await engine.withConnection { connection in
                try await connection.execute(SQLStatement(
                    sql: #"CREATE UNIQUE INDEX CONCURRENTLY \#(PostgresDialect.quote(invalid)) ON "Place" ("$zone")"#))
            }
        }
        #expect(try await Self.indexes(engine)[invalid]?.hasPrefix("INVALID") == true)
        #expect(try await Self.marks(engine) == ["pendingIndexes:Place"])
        #expect(try await Self.answers(store) == expected)
        let reopened = try await Store.open(url: url)
        #expect(try await Self.indexes(engine) == complete)
        #expect(try await Self.marks(engine).isEmpty)
        #expect(try await Self.answers(reopened) == expected)
    }

    /// A value too long for a B-tree entry (PostgreSQL's limit is about 2.7 kB): 3,000 random
    /// CJK ideographs, 9 kB of UTF-8 that compression cannot bring under the limit.
    static func unindexableText() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(String.UnicodeScalarView((0..<3_000).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0x4E00...0x9FFF, using: &generator)) }))
    }

    @Test func aConcurrentBuildThatFailsSaysTheChangeIsCommittedAndTheIndexesPending() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let store = try await Store.open(url: url)
        let unindexed = FieldSchema(name: "body", type: .string, isQueryable: false, isSortable: false)
        try await store.define(RecordTypeSchema(name: "Note", fields: [unindexed]))
        let text = Self.unindexableText()
        _ = try await store.save([Record(recordType: "Note", recordID: RecordID(recordName: "long"), fields: ["body": .string(text)])])
        // Making the field queryable asks for its indexes on a populated table: built
        // concurrently after the change commits, they fail on the value too long to index.
        let indexed = FieldSchema(name: "body", type: .string, isQueryable: true, isSortable: false)
        var failure: RecordStoreError?
        do {
            try await store.define(RecordTypeSchema(name: "Note", fields: [indexed]))
        } catch {
            failure = error
        }
        guard case .indexBuildPending(let recordTypes, let reason)? = failure else {
            Issue.record("expected indexBuildPending, got \(String(describing: failure))")
            return
        }
        #expect(recordTypes == ["Note"])
        // The field index (zone, body) of a 9 kB value exceeds the 8 kB page's limit.
        #expect(reason == "Storage error: PostgreSQL refused a statement: index row requires 9016 bytes, maximum size is 8191 (SQLSTATE 54000)")
        #expect(failure?.description.hasPrefix("The schema change is committed, but the indexes of 'Note' are not built yet: ") == true)
        #expect(failure?.description.hasSuffix("Queries answer without them, more slowly; they are built when the store is next opened") == true)
        // The change is committed; the indexes wait, and queries answer exactly without them.
        #expect(try await store.schema(for: "Note")?.field(named: "body") == indexed)
        // (Through the open store: opening another would build the indexes again, and fail again.)
        let engine = try #require(store.engine as? PostgresEngine)
        #expect(try await Self.marks(engine) == ["pendingIndexes:Note"])
        #expect(try await store.count(ofType: "Note", matching: FormatPredicate(format: "body == %@", argumentArray: [.string(text)])) == 1)
    }

    @Test func aRenamedRecordTypeKeepsItsIndexBuildMarks() async throws {
        let (store, _) = try await Self.placesStore(queryable: true, sortable: true)
        let engine = try #require(store.engine as? PostgresEngine)
        // A bulk load of Place left unfinished: its indexes wait for the load's end.
        try await engine.write { connection in try await PostgresStoreMetadata(connection: connection).mark(.deferred, "Place") }
        var spot = try #require(try await store.schema(for: "Place"))
        spot.name = "Spot"
        try await store.engine.migrate(
            SchemaMigration(fromVersion: nil, toVersion: ModelVersion(name: "Spots", identifier: "2"), recordTypes: [RecordTypeMigration(source: "Place", target: spot)]),
            progress: nil)
        // The mark moved with the type: the load's end builds Spot's indexes.
        #expect(try await Self.marks(engine) == ["deferredIndexes:Spot"])
        #expect(try await store.count(ofType: "Spot", matching: FormatPredicate(format: "TRUEPREDICATE")) == IndexTypeTests.places.count)
    }
}

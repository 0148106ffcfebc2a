import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

@Suite("Import of JSON lines, JSON and CSV")
struct ImportTests {
    func write(_ text: String, named name: String) throws -> String {
        let path = (CitiesFixture.temporaryDatabasePath("import") as NSString).deletingLastPathComponent + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("A bad JSON line names its line, and nothing of its batch is written")
    func badLine() throws {
        let path = try write("{\"id\": 1, \"n\": \"a\"}\n{\"id\": 2, \"n\": \"b\"}\n{\"id\": 3, \"n\": \"c\"}\n{\"id\": 4, oops}\n", named: "bad.jsonl")
        for store in try freshStores() {
            var importer = RecordImporter(recordType: "Item")
            importer.idField = "id"
            importer.batchSize = 2
            #expect {
                try importer.importFile(at: path, into: store)
            } throws: { error in
                guard case RecordStoreError.malformedInput(let file, let line, _) = error else { return false }
                return file == "bad.jsonl" && line == 4
            }
            // The first batch (lines 1-2) is committed; the second (lines 3-4) is not.
            #expect(try store.records(ofType: "Item", matching: .truePredicate, sorts: [Sort("recordName")]).map(\.recordID.recordName) == ["1", "2"])
        }
    }

    @Test("An import defines its record type only when the type is missing or its index policy differs")
    func importDefinesOnlyWhatChanges() throws {
        let path = try write("{\"id\": 1, \"n\": \"a\"}\n{\"id\": 2, \"n\": \"b\"}\n", named: "policy.jsonl")
        let (store, defined) = recordingDefinitions(of: Store.inMemory())
        var importer = RecordImporter(recordType: "Item")
        importer.idField = "id"
        importer.justInTimeIndexes = .all
        // A missing type is defined, with the policy.
        #expect(try importer.importFile(at: path, into: store).recordCount == 2)
        #expect(defined() == ["Item"])
        #expect(try store.schema(for: "Item")?.justInTimeIndexes == .all)
        // The same policy defines nothing, also for a type that has no fields yet.
        try store.define(RecordTypeSchema(name: "Empty", justInTimeIndexes: .all))
        var empty = importer
        empty.recordType = "Empty"
        #expect(try empty.importFile(at: path, into: store).recordCount == 2)
        #expect(try importer.importFile(at: path, into: store).recordCount == 2)
        #expect(defined() == ["Item", "Empty"])
        let emptyFields = try store.schema(for: "Empty")?.fields.map { "\($0.name): \($0.indexDescription)" }
        #expect(emptyFields == ["id: queryable sortable", "n: queryable sortable searchable"])
        // Another policy is defined; no policy defines nothing.
        importer.justInTimeIndexes = .automatic
        #expect(try importer.importFile(at: path, into: store).recordCount == 2)
        importer.justInTimeIndexes = nil
        #expect(try importer.importFile(at: path, into: store).recordCount == 2)
        #expect(defined() == ["Item", "Empty", "Item"])
        #expect(try store.schema(for: "Item")?.justInTimeIndexes == .automatic)
    }

    @Test("CSV cells that look numeric become numbers; quoted cells keep commas")
    func csv() throws {
        let path = try write("code,name,elevation,lat,lon\n007,\"Paris, Orly\",89,48.72,2.38\nLFPG,Charles de Gaulle,392,49,2.55\n", named: "airports.csv")
        let store = Store.inMemory()
        var importer = RecordImporter(recordType: "Airport")
        importer.idField = "code"
        importer.locations = [.init(name: "location", latitudeField: "lat", longitudeField: "lon")]
        let summary = try importer.importFile(at: path, into: store)
        #expect(summary.recordCount == 2)
        let orly = try #require(try store.record(for: RecordID(recordName: "007")))
        #expect(orly["name"] == .string("Paris, Orly"))
        #expect(orly["elevation"] == .int(89))
        #expect(orly["location"] == .location(Location(latitude: 48.72, longitude: 2.38)))
        #expect(try store.schema(for: "Airport")?.field(named: "lat")?.type == .double)
    }

    @Test("A JSON array imports; a JSON error names its line")
    func jsonArray() throws {
        let store = Store.inMemory()
        let good = try write("[{\"id\": \"a\"},\n {\"id\": \"b\"}]", named: "good.json")
        var importer = RecordImporter(recordType: "Thing")
        importer.idField = "id"
        #expect(try importer.importFile(at: good, into: store).recordCount == 2)
        let bad = try write("[{\"id\": \"a\"},\n {\"id\": }]", named: "bad.json")
        #expect {
            try importer.importFile(at: bad, into: store)
        } throws: { error in
            guard case RecordStoreError.malformedInput(_, let line, _) = error else { return false }
            return line == 2
        }
    }
}

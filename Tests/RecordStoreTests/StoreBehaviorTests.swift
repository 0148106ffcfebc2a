import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// Every engine, fresh and empty, for the behaviour tests.
func freshStores(mode: SchemaMode = .development) throws -> [Store] {
    try TestEngine.freshStores(mode: mode)
}

func city(_ name: String, _ fields: [String: Value], zone: ZoneID = .default) -> Record {
    Record(recordType: "City", recordID: RecordID(recordName: name, zoneID: zone), fields: fields)
}

@Suite("Store behaviour on both engines")
struct StoreBehaviorTests {
    @Test("Saving stamps change tags and dates; a stale or missing tag is a conflict and changes nothing")
    func conflicts() throws {
        for store in try freshStores() {
            let saved = try store.save([city("paris", ["name": "Paris", "population": 2_138_551])])[0]
            #expect(saved.recordChangeTag?.count == 8)
            #expect(saved.creationDate != nil)
            #expect(saved.creationDate == saved.modificationDate)

            var update = saved
            update["population"] = 2_145_906
            let updated = try store.save([update])[0]
            #expect(updated.recordChangeTag != saved.recordChangeTag)
            #expect(updated.creationDate == saved.creationDate)

            var stale = saved
            stale["population"] = 1
            #expect(throws: RecordStoreError.conflict(saved.recordID, expected: saved.recordChangeTag, found: updated.recordChangeTag)) {
                try store.save([stale])
            }
            #expect(throws: RecordStoreError.conflict(saved.recordID, expected: nil, found: updated.recordChangeTag)) {
                try store.save([city("paris", ["name": "Paris again"])])
            }
            #expect(try store.record(for: saved.recordID)?["population"] == .int(2_145_906))
            #expect(try store.record(for: saved.recordID) == updated)
        }
    }

    @Test("A batch is all or none")
    func allOrNone() throws {
        for store in try freshStores() {
            try store.save([city("a", ["name": "A"])])
            let batch = [city("b", ["name": "B"]), city("c", ["name": "C"]), city("a", ["name": "A2"])]
            #expect(throws: RecordStoreError.self) { try store.save(batch) }
            #expect(try store.count(ofType: "City", matching: .truePredicate) == 1)
            #expect(try store.record(for: RecordID(recordName: "b")) == nil)
            #expect(throws: RecordStoreError.duplicateRecordID(RecordID(recordName: "d"))) {
                try store.save([city("d", [:]), city("d", [:])])
            }
        }
    }

    @Test("Zones isolate records, and deleting a zone deletes its records")
    func zones() throws {
        for store in try freshStores() {
            let archive = ZoneID(zoneName: "Archive'; DROP TABLE City; --")
            #expect(throws: RecordStoreError.zoneNotFound(archive)) { try store.save([city("x", ["name": "X"], zone: archive)]) }
            try store.createZone(archive)
            try store.save([city("x", ["name": "X"], zone: archive), city("x", ["name": "Default X"])])
            let inArchive = try store.records(ofType: "City", matching: .truePredicate, zone: archive)
            #expect(inArchive.map { $0["name"] } == [.string("X")])
            #expect(try store.records(ofType: "City", matching: .truePredicate).map { $0["name"] } == [.string("Default X")])
            #expect(try store.zones() == [.default, archive])
            try store.deleteZone(archive)
            #expect(try store.zones() == [.default])
            #expect(throws: RecordStoreError.zoneNotFound(archive)) { try store.records(ofType: "City", matching: .truePredicate, zone: archive) }
            #expect(try store.count(ofType: "City", matching: .truePredicate) == 1)
            #expect(throws: RecordStoreError.cannotDeleteDefaultZone) { try store.deleteZone(.default) }
        }
    }

    @Test("Delete removes records from queries, lists and full text")
    func deletion() throws {
        for store in try freshStores() {
            try store.save([city("a", ["name": "Alpha", "tags": ["x", "y"]]), city("b", ["name": "Beta", "tags": ["y"]])])
            try store.delete([RecordID(recordName: "a"), RecordID(recordName: "missing")])
            #expect(try store.count(ofType: "City", matching: FormatPredicate(format: "ANY tags == 'y'")) == 1)
            #expect(try store.count(ofType: "City", matching: FormatPredicate(format: "self CONTAINS 'alpha'")) == 0)
            #expect(try store.count(ofType: "City", matching: FormatPredicate(format: "self CONTAINS 'beta'")) == 1)
        }
    }

    @Test("A field arriving with another type is an error naming the field and both types")
    func typeMismatch() throws {
        for store in try freshStores() {
            try store.save([city("a", ["population": 10])])
            let error = RecordStoreError.typeMismatch(field: "population", recordType: "City", schemaType: .int64, valueType: "string")
            #expect(throws: error) { try store.save([city("b", ["population": "many"])]) }
            #expect(error.description == "Field 'population' of record type 'City' has type int64, but a value of type string arrived")
            try store.save([city("c", ["population": 2.5])])  // int64 widens to double in development mode
            #expect(try store.schema(for: "City")?.field(named: "population")?.type == .double)
        }
    }

    @Test("Production mode: querying or sorting without the index fails before running")
    func productionIndexes() throws {
        for store in try freshStores(mode: .production) {
            try store.define(RecordTypeSchema(name: "City", fields: [
                FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: true, isSearchable: true),
                FieldSchema(name: "population", type: .int64, isQueryable: false, isSortable: false),
            ]))
            try store.save([city("a", ["name": "A", "population": 1])])
            #expect(throws: RecordStoreError.notQueryable(field: "population", recordType: "City")) {
                try store.records(ofType: "City", matching: FormatPredicate(format: "population == 5"))
            }
            // A range needs a sortable index (#29).
            #expect(throws: RecordStoreError.notSortable(field: "population", recordType: "City")) {
                try store.records(ofType: "City", matching: FormatPredicate(format: "population > 5"))
            }
            #expect(RecordStoreError.notQueryable(field: "population", recordType: "City").description.hasPrefix("Field 'population' is not marked queryable"))
            #expect(throws: RecordStoreError.notSortable(field: "population", recordType: "City")) {
                try store.records(ofType: "City", matching: .truePredicate, sorts: [Sort("population")])
            }
            #expect(throws: RecordStoreError.schemaChangeNotAllowed(recordType: "City", field: "mayor")) {
                try store.save([city("b", ["mayor": "X"])])
            }
            #expect(try store.records(ofType: "City", matching: FormatPredicate(format: "name == 'A'")).count == 1)
        }
    }

    @Test("Injection through values, %K keys, type names and zone names never reaches SQL")
    func injection() throws {
        for store in try freshStores() {
            try store.save([city("a", ["name": "Robert'); DROP TABLE City;--"]), city("b", ["name": "B"])])
            let byValue = try store.records(ofType: "City", matching: FormatPredicate(format: "name == %@", "x' OR 1=1 --"))
            #expect(byValue.isEmpty)
            let quoted = try store.records(ofType: "City", matching: FormatPredicate(format: "name == %@", "Robert'); DROP TABLE City;--"))
            #expect(quoted.map(\.recordID.recordName) == ["a"])
            // A key with SQL in it is only a name, and no field has it.
            #expect(throws: RecordStoreError.unknownField("name\" = \"name\" OR \"1", recordType: "City")) {
                try store.records(ofType: "City", matching: FormatPredicate(format: "%K == 'B'", "name\" = \"name\" OR \"1"))
            }
            #expect(throws: RecordStoreError.invalidRecordTypeName("City\"; DROP TABLE City; --")) {
                try store.records(ofType: "City\"; DROP TABLE City; --", matching: .truePredicate)
            }
            #expect(throws: RecordStoreError.invalidRecordTypeName("x\" (a); --")) {
                try store.save([Record(recordType: "x\" (a); --", recordID: RecordID(recordName: "z"))])
            }
            #expect(throws: RecordStoreError.invalidFieldName("a\"b", recordType: "City")) {
                try store.save([city("z", ["a\"b": 1])])
            }
            #expect(try store.count(ofType: "City", matching: .truePredicate) == 2)
        }
    }

    @Test("Readers run while a writer saves")
    func readersDuringWrites() async throws {
        let store = try Store.open(path: CitiesFixture.temporaryDatabasePath("concurrency"))
        try await store.save((0..<100).map { city("seed\($0)", ["n": .int(Int64($0))]) })
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                for batch in 0..<20 {
                    try store.save((0..<50).map { city("w\(batch)-\($0)", ["n": .int(Int64(1000 + $0))]) })
                }
                return -1
            }
            for _ in 0..<4 {
                group.addTask {
                    var last = 0
                    for _ in 0..<20 {
                        let count = try store.count(ofType: "City", matching: FormatPredicate(format: "n >= 0"))
                        // Each read sees a whole number of committed batches.
                        guard count >= last, (count - 100) % 50 == 0 else { return -2 }
                        last = count
                    }
                    return last
                }
            }
            for try await result in group {
                #expect(result != -2)
            }
        }
        await #expect(try store.count(ofType: "City", matching: .truePredicate) == 1100)
    }

    @Test("Explain shows SQL, arguments, residual and indexes")
    func explain() throws {
        let store = try Store.open(path: CitiesFixture.temporaryDatabasePath("explain"))
        try store.save([city("a", ["name": "Alpha", "population": 5])])
        let plan = try store.explain(
            ofType: "City", matching: FormatPredicate(format: "population > 3 AND name MATCHES 'A.*' AND name.length > 1"),
            sorts: [Sort("population", ascending: false)])
        #expect(plan.sql.contains("t.\"population\" > ?"))
        // The default zone's stored key (TableLayout.zoneKey) is the empty string.
        #expect(plan.arguments.first == "\"\"")
        #expect(plan.residual == "name.length > 1")
        #expect(plan.indexesUsed == ["City$population$index"])
        #expect(plan.description.contains("residual: name.length > 1"))
        // Never analyzed: SQLite has no statistics, so no step has an estimate.
        #expect(plan.estimatedRows == plan.queryPlanDetails.map { _ in nil })
    }

    @Test("The memory engine's plan scans every record of the type in the zone")
    func memoryExplainCountsTheScannedRecords() throws {
        let store = Store.inMemory()
        try store.save((0..<3).map { city("m\($0)", ["name": .string("M\($0)"), "population": .int(Int64($0))]) })
        let plan = try store.explain(ofType: "City", matching: FormatPredicate(format: "population > 1"))
        #expect(plan.queryPlanDetails == ["scan City in zone _defaultZone"])
        #expect(plan.estimatedRows == [3])
        #expect(plan.description.contains("  scan City in zone _defaultZone  (~3 rows)"))
    }
}

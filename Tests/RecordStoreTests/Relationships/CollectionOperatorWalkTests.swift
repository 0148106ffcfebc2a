import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// A collection operator followed by a walk through a to-one (`reports.@max.dept.budget`):
/// key-value coding reads `dept.budget` of each member, as Apple's does, on every engine (the
/// store once left `dept` unwalked, so every member read nil and nothing matched).
@Suite("Collection operators followed by a to-one walk")
struct CollectionOperatorWalkTests {
    static let schema: [RecordTypeSchema] = [
        RecordTypeSchema(name: "Dept", fields: [FieldSchema(name: "budget", type: .double)]),
        RecordTypeSchema(
            name: "Emp", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [
                .toOne("dept", destination: "Dept"),
                .toOne("manager", destination: "Emp"),
                .toMany("reports", destination: "Emp", inverse: "manager"),
            ]),
    ]

    static func store(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.define(schema)
        func reference(_ name: String) -> Value { .reference(Reference(recordName: name)) }
        try store.save([
            Record(recordType: "Dept", recordID: RecordID(recordName: "d1"), fields: ["budget": .double(10)]),
            Record(recordType: "Dept", recordID: RecordID(recordName: "d2"), fields: ["budget": .double(2.5)]),
            Record(recordType: "Emp", recordID: RecordID(recordName: "boss"), fields: ["name": "boss"]),
            Record(recordType: "Emp", recordID: RecordID(recordName: "e1"), fields: ["name": "e1", "dept": reference("d1"), "manager": reference("boss")]),
            Record(recordType: "Emp", recordID: RecordID(recordName: "chief"), fields: ["name": "chief"]),
            Record(recordType: "Emp", recordID: RecordID(recordName: "e2"), fields: ["name": "e2", "dept": reference("d1"), "manager": reference("chief")]),
            Record(recordType: "Emp", recordID: RecordID(recordName: "e3"), fields: ["name": "e3", "dept": reference("d2"), "manager": reference("chief")]),
            Record(recordType: "Emp", recordID: RecordID(recordName: "e4"), fields: ["name": "e4", "manager": reference("chief")]),
        ])
        return store
    }

    static let cases: [(String, [String])] = [
        ("reports.@max.dept.budget > 5", ["boss", "chief"]),
        ("reports.@min.dept.budget > 5", ["boss"]),
        ("reports.@min.dept.budget == 2.5", ["chief"]),
        ("reports.@avg.dept.budget > 5", ["boss", "chief"]),
        ("reports.@avg.dept.budget == 6.25", ["chief"]),
        ("reports.@sum.dept.budget == 10", ["boss"]),
        ("reports.@sum.dept.budget == 12.5", ["chief"]),
        ("reports.@sum.dept.budget == 0", ["e1", "e2", "e3", "e4"]),
        ("reports.@count == 3", ["chief"]),
        ("ANY reports.dept.budget == 2.5", ["chief"]),
    ]

    @Test("Each member's walked value is aggregated", arguments: TestEngine.allCases)
    func aggregatesOfWalkedValues(engine: TestEngine) throws {
        let store = try Self.store(engine)
        for (format, expected) in Self.cases {
            let found = try store.records(ofType: "Emp", matching: FormatPredicate(format: format), sorts: [Sort("name")]).map(\.recordID.recordName)
            #expect(found == expected, "\(engine): \(format)")
        }
    }
}

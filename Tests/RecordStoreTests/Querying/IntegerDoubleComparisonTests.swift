import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Integers and doubles compare exactly, as `NSNumber` compares them, on every engine:
/// 9007199254740993 is not 9007199254740992.0, though the double nearest to it is. PostgreSQL
/// compared a `bigint` column with a double in double precision and found it equal.
@Suite("Integers against doubles compare exactly on every engine")
struct IntegerDoubleComparisonTests {
    static func store(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.define(RecordTypeSchema(name: "Item", fields: [
            FieldSchema(name: "j", type: .int64), FieldSchema(name: "x", type: .double), FieldSchema(name: "js", type: .list(.int64)),
        ]))
        try store.save([
            ("a", 9_007_199_254_740_993, 9_007_199_254_740_992.0),
            ("b", 9_007_199_254_740_994, 2.5),
            ("c", 2, -1.0),
        ].map { name, j, x in
            Record(recordType: "Item", recordID: RecordID(recordName: name), fields: ["j": .int(j), "x": .double(x), "js": .list([.int(j)])])
        })
        return store
    }

    static let cases: [(String, [String])] = [
        ("j == 9007199254740992.0", []),
        ("j != 9007199254740992.0", ["a", "b", "c"]),
        ("j > 9007199254740992.0", ["a", "b"]),
        ("j >= 9007199254740994.0", ["b"]),
        ("9007199254740992.0 < j", ["a", "b"]),
        ("j BETWEEN {9007199254740992.0, 9007199254740994.0}", ["a", "b"]),
        ("j IN {9007199254740992.0, 2.0}", ["c"]),
        ("j > 1.5", ["a", "b", "c"]),
        ("j == 1.5", []),
        ("j != 1.5", ["a", "b", "c"]),
        ("j < 2.5", ["c"]),
        ("ANY js == 9007199254740992.0", []),
        ("ANY js == 2.0", ["c"]),
        ("x == 9007199254740993", []),
        ("x < 9007199254740993", ["a", "b", "c"]),
        ("x == 9007199254740992", ["a"]),
    ]

    @Test("Each comparison finds the records NSNumber's comparison finds", arguments: TestEngine.allCases)
    func exactComparisons(engine: TestEngine) throws {
        let store = try Self.store(engine)
        for (format, expected) in Self.cases {
            let found = try store.records(ofType: "Item", matching: FormatPredicate(format: format), sorts: [Sort("recordName")]).map(\.recordID.recordName)
            #expect(found == expected, "\(engine): \(format)")
        }
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@testable import RecordStoreCore

/// Issue #27, item 7: "any `LIKE` whose meaning SQL can compute exactly on the folded column should
/// not come back to Swift". A pattern with wildcards anywhere is SQLite's `GLOB` or PostgreSQL's
/// `LIKE` on the same (folded, NFC) column the evaluator's `LIKE` reads, one code point per `?`;
/// every engine selects what the memory engine (the evaluator) selects, and the SQL engines leave
/// no residual.
@Suite("LIKE with wildcards anywhere runs in SQL, exactly")
struct LikeInSQLTests {
    static let names: [String: String] = [
        "plain": "San Francisco", "accent": "S\u{E3}o Paulo", "decomposed": "Sa\u{303}o Tom\u{E9}",
        "specials": "100% [draft]_v2*?", "backslash": #"a\b"#, "emoji": "\u{1F1EB}\u{1F1F7} Paris", "upper": "SAN JOSÉ",
    ]

    static func store(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        // Every index type: the list's members are in the list table, where SQL matches them.
        try store.define(RecordTypeSchema(name: "Place", justInTimeIndexes: .all))
        try store.save(names.map { name, text in
            RecordStore.Record(recordType: "Place", recordID: RecordID(recordName: name), fields: ["name": .string(text), "tags": [.string(text)]])
        })
        return store
    }

    /// Pattern, then the records it selects (the evaluator's answer, written out).
    static let cases: [(String, [String])] = [
        ("name LIKE 'S*o *'", ["accent", "decomposed"]),
        ("name LIKE 'S?o *'", ["accent", "decomposed"]),
        ("name LIKE 'Sa?o*'", []),
        ("name LIKE 'Sa\\u0303o T?m*'", ["decomposed"]),
        ("name LIKE '*Paul?'", ["accent"]),
        ("name LIKE[c] '*jos\\u00E9'", ["upper"]),
        ("name LIKE[c] '*jose'", []),
        ("name LIKE[cd] '*SAO*'", ["accent", "decomposed"]),
        ("name LIKE[cd] 's?n *'", ["plain", "upper"]),
        ("name LIKE '100% [*]_v2\\\\*\\\\?'", ["specials"]),
        ("name LIKE '*[draft]*'", ["specials"]),
        ("name LIKE '*\\\\**'", ["specials"]),
        ("name LIKE '1?0%*'", ["specials"]),
        ("name LIKE '*_v?*'", ["specials"]),
        ("name LIKE 'a\\\\\\\\?'", ["backslash"]),
        ("name LIKE '?? Paris'", ["emoji"]),
        ("name LIKE '? Paris'", []),
        ("ANY tags LIKE[cd] '*SAO*'", ["accent", "decomposed"]),
        ("ANY tags LIKE '*[*]*'", ["specials"]),
    ]

    @Test("Every engine selects the evaluator's records", arguments: TestEngine.allCases)
    func enginesAgree(engine: TestEngine) throws {
        let store = try Self.store(engine)
        for (format, expected) in Self.cases {
            let predicate = try FormatPredicate(format: format)
            #expect(try store.records(ofType: "Place", matching: predicate, sorts: [Sort("recordName")]).map(\.recordID.recordName) == expected.sorted(),
                    "\(engine): \(format)")
            #expect(try store.count(ofType: "Place", matching: predicate) == expected.count, "\(engine): \(format)")
        }
    }

    @Test("The SQL engines leave no residual for a field's LIKE", arguments: TestEngine.allCases.filter { $0 != .memory })
    func noResidual(engine: TestEngine) throws {
        let store = try Self.store(engine)
        for (format, _) in Self.cases {
            let plan = try store.explain(ofType: "Place", matching: FormatPredicate(format: format))
            #expect(plan.residual == nil, "\(engine): \(format)")
        }
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
import Testing
@_spi(StorageEngine) import RecordStoreCore

/// What a query costs: token searches are one full-text match however many words they ask for
/// (one `MATCH` on SQLite, one `@@` on PostgreSQL, the record's text tokenized once by the
/// evaluator), and testing a predicate on the records stops at the caller's ``QueryCostLimits``:
/// steps counted across every record of the query, and a deadline. Every engine answers alike.
@Suite("Querying: token searches are one full-text match; a query's evaluation has a budget")
struct QueryCostTests {
    static let places: [(String, String, String, [String])] = [
        ("paris", "Paris", "capital of France on the Seine", ["a", "b", "c", "d"]),
        ("lyon", "Lyon", "city on the Rhone and the Saone", ["e", "f", "g", "h"]),
        ("sao", "São Paulo", "largest city of Brazil", ["i", "j", "k", "l"]),
        ("zurich", "Zürich", "city on a lake", ["m", "n", "o", "p"]),
        ("newyork", "New York", "city on the Hudson", ["q", "r", "s", "t"]),
        ("springfield", "Springfield", "", ["u", "v", "w", "x"]),
    ]

    static func store(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.define(RecordTypeSchema(name: "Place", fields: [
            FieldSchema(name: "name", type: .string, isSearchable: true),
            FieldSchema(name: "note", type: .string, isSearchable: true),
            FieldSchema(name: "code", type: .string),
            FieldSchema(name: "tags", type: .list(.string), isQueryable: false, isSortable: false),
        ]))
        _ = try store.save(places.map { id, name, note, tags in
            Record(recordType: "Place", recordID: RecordID(recordName: id), fields: [
                "name": .string(name), "note": .string(note), "code": .string(name), "tags": .list(tags.map(Value.string)),
            ])
        })
        return store
    }

    /// `count` made-up words that no record holds.
    static func absentWords(_ count: Int) -> [String] {
        (0..<count).map { "zq\($0)x" }
    }

    static func joined(_ words: [String], _ format: String, by connective: String) throws -> FormatPredicate {
        try FormatPredicate(format: words.map { _ in format }.joined(separator: " \(connective) "), argumentArray: words.map(Value.string))
    }

    /// Each search, the records it finds, and whether SQL answers it exactly (no residual).
    static func searches() throws -> [(predicate: FormatPredicate, expected: [String], exact: Bool)] {
        [
            (try joined(absentWords(99) + ["seine"], "SELF CONTAINS %@", by: "OR"), ["paris"], true),
            (try FormatPredicate(format: "SELF CONTAINS %@", (absentWords(98) + ["lake", "brazil"]).joined(separator: " ")), ["sao", "zurich"], true),
            (try joined(["city", "lake"], "SELF CONTAINS %@", by: "AND"), ["zurich"], true),
            (try joined(absentWords(50) + ["city"], "SELF CONTAINS %@", by: "AND"), [], true),
            (try FormatPredicate(format: "ANY tokenize:using:(note, nil) IN %@", argumentArray: [.list((absentWords(98) + ["hudson", "seine"]).map(Value.string))]),
             ["newyork", "paris"], false),
            (try joined(["city", "hudson"], "ANY tokenize:using:(note, nil) == %@", by: "AND"), ["newyork"], false),
            (try joined(absentWords(99) + ["paulo", "york"], "ANY tokenize:using:(name, nil) == %@", by: "OR"), ["newyork", "sao"], false),
            // The name's words only: "city" is in notes, in no name.
            (try joined(["city", "york"], "ANY tokenize:using:(name, nil) == %@", by: "OR"), ["newyork"], false),
            (try joined(["city", "zq1x"], "ANY tokenize:using:(name, nil) == %@", by: "OR"), [], false),
            (try FormatPredicate(format: "SELF CONTAINS 'seine' OR SELF CONTAINS 'hudson' OR code == 'Lyon'"), ["lyon", "newyork", "paris"], true),
            (try FormatPredicate(format: "SELF CONTAINS 'city' AND code == 'Zürich' AND SELF CONTAINS 'lake'"), ["zurich"], true),
        ]
    }

    @Test("Token searches find the same records on every engine", arguments: TestEngine.allCases)
    func tokenSearchesAnswerAlike(engine: TestEngine) throws {
        let store = try Self.store(engine)
        for (predicate, expected, _) in try Self.searches() {
            let found = try store.records(ofType: "Place", matching: predicate, sorts: [Sort("recordName")]).map(\.recordID.recordName)
            #expect(found == expected, "\(engine): \(predicate.predicateFormat.prefix(120))")
        }
    }

    @Test("The SQL engines plan a token search of any size as one full-text match", arguments: TestEngine.allCases.filter { $0 != .memory })
    func oneFullTextMatch(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let match = engine == .postgres ? " @@ " : " MATCH "
        for (predicate, _, exact) in try Self.searches() {
            let plan = try store.explain(ofType: "Place", matching: predicate)
            #expect(plan.sql.components(separatedBy: match).count == 2, "\(engine): \(plan.sql.prefix(300))")
            if exact {
                #expect(plan.residual == nil, "\(engine): \(plan.residual ?? "")")
            } else {
                #expect(plan.residual != nil)
            }
        }
    }

    /// 6 records, 4 tags each: the nested SUBQUERY takes 4 + 16 = 20 steps a record, 120 for the
    /// query, far below the limit of one record.
    static let nestedSubquery = "SUBQUERY(tags, $a, SUBQUERY(tags, $b, $a == $b).@count > 1).@count > 0"

    @Test("A query stops past its step budget, counted across its records", arguments: TestEngine.allCases)
    func stepBudgetAcrossRecords(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let query = try RecordQuery(recordType: "Place", predicate: FormatPredicate(format: Self.nestedSubquery), sorts: [Sort("recordName")])
        #expect(throws: RecordStoreError.queryTooExpensive(.steps(100)), "\(engine)") {
            try store.firstBatch(matching: query, costLimits: QueryCostLimits(maximumEvaluationSteps: 100))
        }
        #expect(try store.firstBatch(matching: query, costLimits: QueryCostLimits(maximumEvaluationSteps: 120)).records.isEmpty)
        #expect(try store.firstBatch(matching: query).records.isEmpty)
        #expect(RecordStoreError.queryTooExpensive(.steps(100)).description
            == "The query is too expensive: testing its predicate on the records took more than 100 evaluation steps "
            + "(collection members visited by SUBQUERY, ANY, ALL, NONE and collection operators), the limit its caller set "
            + "(QueryCostLimits.maximumEvaluationSteps)")
    }

    @Test("Each page of a query has its own budget", arguments: TestEngine.allCases)
    func eachPageHasItsBudget(engine: TestEngine) throws {
        let store = try Self.store(engine)
        // 4 steps a record. A page of 3 tests 4 records on the SQL engines (one more, to know
        // whether more remain) and all 6 on the memory engine: at most 24 steps a page, 40 or 48
        // for the two pages together.
        let query = try RecordQuery(
            recordType: "Place", predicate: FormatPredicate(format: "SUBQUERY(tags, $t, $t != 'z').@count == 4"), sorts: [Sort("recordName")])
        let limits = QueryCostLimits(maximumEvaluationSteps: 24)
        let first = try store.firstBatch(matching: query, resultsLimit: 3, costLimits: limits)
        #expect(first.records.map(\.recordID.recordName) == ["lyon", "newyork", "paris"])
        let cursor = try #require(first.cursor)
        let second = try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: 3, costLimits: limits)
        #expect(second.records.map(\.recordID.recordName) == ["sao", "springfield", "zurich"])
        #expect(throws: RecordStoreError.queryTooExpensive(.steps(23)), "\(engine)") {
            try store.firstBatch(matching: query, resultsLimit: 6, costLimits: QueryCostLimits(maximumEvaluationSteps: 23))
        }
    }

    @Test("A query past its deadline stops", arguments: TestEngine.allCases)
    func passedDeadline(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let query = try RecordQuery(recordType: "Place", predicate: FormatPredicate(format: Self.nestedSubquery))
        #expect(throws: RecordStoreError.queryTooExpensive(.deadline), "\(engine)") {
            try store.firstBatch(matching: query, costLimits: QueryCostLimits(deadline: .now - .seconds(1)))
        }
        #expect(try store.firstBatch(matching: query, costLimits: QueryCostLimits(deadline: .now + .seconds(3_600))).records.isEmpty)
    }

    /// A `MATCHES` the database runs itself (SQLite calls back into Swift for each row, with no
    /// residual left to the evaluator) stops at the query's deadline all the same: the database
    /// keeps the deadline over its whole statement.
    @Test("A MATCHES inside SQL stops at the query's deadline", arguments: TestEngine.allCases)
    func matchesInsideSQLStopsAtTheDeadline(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.define(RecordTypeSchema(name: "Line", fields: [FieldSchema(name: "text", type: .string)]))
        _ = try store.save((0..<2_000).map { index in
            Record(recordType: "Line", recordID: RecordID(recordName: "line\(index)"), fields: ["text": .string(index % 500 == 0 ? "aab" : "aaaaaaaaaaaa!")])
        })
        let predicate = try FormatPredicate(format: "text MATCHES '(a+)+b'")
        if engine == .sqlite {
            #expect(try store.explain(ofType: "Line", matching: predicate).residual == nil)
        }
        let query = try RecordQuery(recordType: "Line", predicate: predicate, sorts: [Sort("recordName")])
        #expect(throws: RecordStoreError.queryTooExpensive(.deadline), "\(engine)") {
            try store.firstBatch(matching: query, costLimits: QueryCostLimits(deadline: .now))
        }
        let expected = ["line0", "line1000", "line1500", "line500"]
        #expect(try store.firstBatch(matching: query).records.map(\.recordID.recordName) == expected)
        #expect(try store.firstBatch(matching: query, costLimits: QueryCostLimits(deadline: .now + .seconds(3_600))).records.map(\.recordID.recordName) == expected)
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
import Testing

/// `ANY` over a list that keeps no members in the list table (not declared `QUERYABLE`): SQLite
/// reads each record's members from its JSON column with `json_each` and tests each with the
/// evaluator's callback, PostgreSQL with `json_array_elements_text`, rather than reading every
/// whole record into the residual. The answers
/// are the evaluator's, spellings and all, on every engine.
struct UndeclaredListTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Place (
                name      STRING QUERYABLE,
                names     LIST<STRING>,
                ranks     LIST<INT64>,
                scores    LIST<DOUBLE>
            );
        """

    /// Places whose lists hold what the tests tell apart: a decomposed accent, the Kelvin sign
    /// (which NFC turns into the letter K), an empty list, a missing one, a null member.
    static let places: [Record] = [
        place("a", names: ["Kyoto", "京都"], ranks: [1, 5], scores: [0.5]),
        place("b", names: ["\u{212A}obe"], ranks: [7], scores: [2.25, -1]),
        place("c", names: ["Ko\u{0308}ln", "Cologne"], ranks: [], scores: []),
        place("d", names: [], ranks: [42], scores: nil),
        place("e", names: nil, ranks: nil, scores: [42]),
        place("f", names: ["kyiv", "Kiev"], ranks: [-3, 5_000_000_000], scores: [1e300]),
    ]

    static func place(_ name: String, names: [String]?, ranks: [Int64]?, scores: [Double]?) -> Record {
        var fields: [String: Value] = ["name": .string(name)]
        if let names { fields["names"] = .list(names.map(Value.string)) }
        if let ranks { fields["ranks"] = .list(ranks.map(Value.int)) }
        if let scores { fields["scores"] = .list(scores.map(Value.double)) }
        return Record(recordType: "Place", recordID: RecordID(recordName: name), fields: fields)
    }

    static let predicates = [
        "ANY names BEGINSWITH 'K'", "ANY names BEGINSWITH 'Kö'", "ANY names == 'Köln'", "ANY names BEGINSWITH[c] 'k'",
        "ANY names CONTAINS[cd] 'o'", "names CONTAINS 'Kiev'", "'Cologne' IN names", "NOT (ANY names BEGINSWITH 'K')",
        "ANY names LIKE 'K*o*'", "ANY names MATCHES '[A-Z].*'", "ALL names BEGINSWITH 'K'", "NONE names == 'Kiev'",
        "ANY ranks > 10", "ANY ranks == 5000000000", "ANY ranks BETWEEN {0, 6}", "ANY ranks IN {7, 42}",
        "ANY scores < 0", "ANY scores == 42", "ANY scores > 1e299", "ANY names BEGINSWITH 'K' AND ANY ranks > 1",
    ]

    @Test("ANY over a list without a list table answers as the evaluator, on every engine", arguments: TestEngine.allCases)
    func answersAsTheEvaluator(_ engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.apply(try CloudKitSchemaDocument(parsing: Self.schema))
        _ = try await store.save(Self.places)
        for format in Self.predicates {
            let predicate = try FormatPredicate(format: format)
            let compiled = try CompiledPredicate(predicate)
            let expected = try Self.places.filter { try compiled.evaluate($0.fields) }.map(\.recordID.recordName).sorted()
            let found = try await store.records(ofType: "Place", matching: predicate).map(\.recordID.recordName).sorted()
            #expect(found == expected, "\(engine): \(format)")
        }
    }

    /// The engines that read a list's JSON in SQL, with the function each plan shows.
    static let jsonReaders: [(engine: TestEngine, function: String)] =
        [(.sqlite, "json_each"), (.postgres, "json_array_elements_text")].filter { TestEngine.allCases.contains($0.0) }

    @Test("SQLite and PostgreSQL test ANY over such a list in SQL (json_each, json_array_elements_text), not in the residual",
          arguments: jsonReaders.map(\.engine))
    func sqlReadsTheJSON(_ engine: TestEngine) async throws {
        let function = try #require(Self.jsonReaders.first { $0.engine == engine }).function
        let store = try engine.makeStore()
        try await store.apply(try CloudKitSchemaDocument(parsing: Self.schema))
        for format in ["ANY names BEGINSWITH 'K'", "ANY ranks > 10", "ANY scores < 0"] {
            let plan = try await store.explain(ofType: "Place", matching: FormatPredicate(format: format))
            #expect(plan.sql.contains(function), "\(engine): \(format): \(plan.sql)")
            #expect(plan.residual == nil, "\(engine): \(format)")
        }
        // Members that JSON holds as objects (dates) are left to the residual.
        try await store.apply(try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA RECORD TYPE Diary (days LIST<TIMESTAMP>);"))
        let dates = try await store.explain(ofType: "Diary", matching: FormatPredicate(format: "ANY days > %@", Date(timeIntervalSinceReferenceDate: 0)))
        #expect(!dates.sql.contains(function))
        #expect(dates.residual != nil)
    }
}

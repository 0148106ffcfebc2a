import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// What one query may cost (`QueryLimits`): a token search of any size is one full-text match;
/// more tokens, filters or list values than the limits allow are `BAD_REQUEST` naming the limit
/// and the count; testing a predicate on the records stops at the server's step budget (counted
/// across the records of the request) or time limit, answered `BAD_REQUEST` naming the limit.
@Suite struct QueryLimitsRoutesTests {
    /// `count` made-up words that no record holds.
    static func absentWords(_ count: Int) -> [String] {
        (0..<count).map { "zq\($0)x" }
    }

    static func tokens(_ comparator: String, _ words: [String], field: String = "allTokens") -> JSONValue {
        ["comparator": .string(comparator), "fieldName": .string(field), "fieldValue": ["value": .string(words.joined(separator: " "))]]
    }

    static func predicate(_ format: String, _ arguments: [JSONValue] = []) -> JSONValue {
        ["query": ["recordType": "City", "predicate": .string(format), "arguments": .array(arguments),
                   "sortBy": [["systemFieldName": "recordName", "ascending": true]]]]
    }

    @Test("A token search of 100 tokens is one full-text match", arguments: TestEngine.allCases.filter { $0 != .memory })
    func oneFullTextMatch(engine: TestEngine) async throws {
        let store = try await RecordsQueryTests.servedStore(engine)
        let match = engine == .postgres ? " @@ " : " MATCH "
        let searches: [(JSONValue, [String], Bool)] = [
            (Self.tokens("CONTAINS_ANY_TOKENS", Self.absentWords(99) + ["lyon"]), ["lyon"], true),
            (Self.tokens("CONTAINS_ALL_TOKENS", ["city", "fr", "nice"]), ["nice"], true),
            (Self.tokens("CONTAINS_ANY_TOKENS", Self.absentWords(98) + ["hamburg", "sevilla"], field: "description"), ["hamburg", "sevilla"], false),
            (Self.tokens("CONTAINS_ALL_TOKENS", ["city", "es", "madrid"], field: "description"), ["madrid"], false),
        ]
        try await ServerHarness.withServer(store: store) { server in
            for (filter, expected, exact) in searches {
                let body = RecordsQueryTests.query([filter])
                let plan = try await server.post("records/explain", body)
                #expect(plan.status == 200, "\(plan.body)")
                let sql = plan.body["sql"]?.stringValue ?? ""
                #expect(sql.components(separatedBy: match).count == 2, "\(engine): \(sql.prefix(300))")
                #expect((plan.body["residual"] == .null) == exact, "\(engine): \(plan.body["residual"] ?? .null)")
                let answer = try await server.post("records/query", body)
                #expect(answer.recordNames == expected, "\(engine)")
            }
        }
    }

    @Test func moreTokensThanAQueryMayHaveAreRefused() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            for comparator in ["CONTAINS_ANY_TOKENS", "CONTAINS_ALL_TOKENS"] {
                let answer = try await server.post("records/query", RecordsQueryTests.query([Self.tokens(comparator, Self.absentWords(101))]))
                #expect(answer.status == 400)
                #expect(answer.errorCode == "BAD_REQUEST")
                #expect(answer.body["reason"]?.stringValue == "query.filterBy[0]: \(comparator) searches for 101 tokens; "
                    + "a query may search for at most 100 (the server's QueryLimits.maximumTokens)")
                let hundred = try await server.post("records/query", RecordsQueryTests.query([Self.tokens(comparator, Self.absentWords(100))]))
                #expect(hundred.status == 200, "\(hundred.body)")
            }
            // Counted across the query: two filters of 60, and the predicate's own searches.
            let split = try await server.post("records/query", RecordsQueryTests.query([
                Self.tokens("CONTAINS_ANY_TOKENS", Self.absentWords(60)), Self.tokens("CONTAINS_ANY_TOKENS", Array(Self.absentWords(120).suffix(60))),
            ]))
            #expect(split.body["reason"]?.stringValue
                == "the query searches for 120 tokens; a query may search for at most 100 (the server's QueryLimits.maximumTokens)")
            let predicate = try await server.post("records/query", Self.predicate("SELF CONTAINS %@", [.string(Self.absentWords(101).joined(separator: " "))]))
            #expect(predicate.status == 400)
            #expect(predicate.body["reason"]?.stringValue
                == "the query searches for 101 tokens; a query may search for at most 100 (the server's QueryLimits.maximumTokens)")
        }
    }

    @Test func moreFiltersOrListValuesThanAllowedAreRefused() async throws {
        let store = try await RecordsQueryTests.servedStore()
        let equals: JSONValue = ["comparator": "EQUALS", "fieldName": "countrycode", "fieldValue": ["value": "FR"]]
        try await ServerHarness.withServer(store: store) { server in
            let filters = try await server.post("records/query", RecordsQueryTests.query(Array(repeating: equals, count: 101)))
            #expect(filters.status == 400)
            #expect(filters.body["reason"]?.stringValue
                == "query.filterBy has 101 filters; a query may have at most 100 (the server's QueryLimits.maximumFilters)")
            let hundred = try await server.post("records/query", RecordsQueryTests.query(Array(repeating: equals, count: 100)))
            #expect(hundred.recordNames == ["lyon", "marseille", "nice", "paris", "saint-denis", "versailles"])

            let values = JSONValue.array((0...1_000).map { .string("C\($0)") })
            for comparator in ["IN", "NOT_IN", "LIST_CONTAINS_ANY", "LIST_CONTAINS_ALL"] {
                let field = comparator.hasPrefix("LIST") ? "tags" : "countrycode"
                let answer = try await server.post("records/query", RecordsQueryTests.query([
                    ["comparator": .string(comparator), "fieldName": .string(field), "fieldValue": ["value": values, "type": "STRING_LIST"]],
                ]))
                #expect(answer.status == 400, "\(comparator)")
                #expect(answer.body["reason"]?.stringValue == "query.filterBy[0].fieldValue has a list of 1001 values; "
                    + "a list may have at most 1000 (the server's QueryLimits.maximumListMembers)")
            }
            let predicate = try await server.post("records/query", Self.predicate("countrycode IN %@", [values]))
            #expect(predicate.body["reason"]?.stringValue
                == "the query has a list of 1001 values; a list may have at most 1000 (the server's QueryLimits.maximumListMembers)")
        }
    }

    /// Every city's tags twice over: 2 tags are 2 + 4 steps, 38 for the twelve cities.
    static let nestedSubquery = "SUBQUERY(tags, $a, SUBQUERY(tags, $b, $a == $b).@count > 1).@count > 0"

    @Test("A query past the step budget answers BAD_REQUEST naming it", arguments: TestEngine.allCases)
    func stepBudget(engine: TestEngine) async throws {
        let store = try await RecordsQueryTests.servedStore(engine)
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, predicateRules: .full)
        configuration.queryLimits.maximumEvaluationSteps = 20
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let answer = try await server.post("records/query", Self.predicate(Self.nestedSubquery))
            #expect(answer.status == 400, "\(engine): \(answer.body)")
            #expect(answer.errorCode == "BAD_REQUEST")
            #expect(answer.body["reason"]?.stringValue == "the query is too expensive: testing its predicate on the records took more than 20 "
                + "evaluation steps (collection members visited by SUBQUERY, ANY, ALL, NONE and collection operators), the server's "
                + "limit for one request (QueryLimits.maximumEvaluationSteps); narrow the query with indexed filters")
        }
        configuration.queryLimits.maximumEvaluationSteps = 38
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let answer = try await server.post("records/query", Self.predicate(Self.nestedSubquery))
            #expect(answer.status == 200, "\(engine): \(answer.body)")
            #expect(answer.recordNames.isEmpty)
        }
    }

    @Test("A query past the time limit answers BAD_REQUEST naming it", arguments: TestEngine.allCases)
    func timeLimit(engine: TestEngine) async throws {
        let store = try await RecordsQueryTests.servedStore(engine)
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, predicateRules: .full)
        // A limit of nothing: the deadline has passed when the first record is tested.
        configuration.queryLimits.evaluationTimeLimit = .zero
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let answer = try await server.post("records/query", Self.predicate(Self.nestedSubquery))
            #expect(answer.status == 400, "\(engine): \(answer.body)")
            #expect(answer.body["reason"]?.stringValue == "the query is too expensive: testing its predicate on the records took longer than "
                + "0.0 seconds, the server's limit for one request (QueryLimits.evaluationTimeLimit); narrow the query with indexed filters")
            // SQL answers this one without testing a record.
            let exact = try await server.post("records/query", RecordsQueryTests.query([
                ["comparator": "EQUALS", "fieldName": "countrycode", "fieldValue": ["value": "DE"]],
            ]))
            if engine != .memory { #expect(exact.recordNames == ["berlin", "hamburg", "munich"]) }
        }
    }
}

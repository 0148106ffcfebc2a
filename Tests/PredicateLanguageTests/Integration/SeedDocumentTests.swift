import Foundation
import Testing
import PredicateLanguage

/// Every predicate string of the seed documents: the CKQuery reference (`002_*`)
/// and the `Query` package README (`004_*`), parsed, printed and evaluated as
/// those documents say.
@Suite("Seed documents")
struct SeedDocumentTests {
    static func record(_ json: String) throws -> Value {
        try Value(jsonText: json)
    }

    static func matches(_ format: String, _ arguments: [Value] = [], _ object: Value) throws -> Bool {
        try CompiledPredicate(FormatPredicate(format: format, argumentArray: arguments)).evaluate(value: object)
    }

    // Listing 1: matching the ID of a record.
    @Test func listing1MatchesAReference() throws {
        let employee = Value.reference(Reference(recordName: "employee-7"))
        let predicate = try FormatPredicate(format: "employee == %@", argumentArray: [employee])
        #expect(predicate.predicateFormat == #"employee == CAST("employee-7", "CKReference")"#)
        #expect(try Self.matches("employee == %@", [employee], Self.record(#"{"employee": {"$ref": "employee-7"}}"#)))
        #expect(try !Self.matches("employee == %@", [employee], Self.record(#"{"employee": {"$ref": "employee-8"}}"#)))
        #expect(try !Self.matches("employee == %@", [employee], Self.record(#"{"employee": {"$ref": ["employee-7", "other"]}}"#)))
    }

    // Listing 2: four spellings of "favoriteColors holds red" give the same results.
    @Test func listing2AllFourSpellingsAgree() throws {
        let spellings: [(String, [Value], String)] = [
            ("ANY favoriteColors = 'red'", [], #"ANY favoriteColors == "red""#),
            ("favoriteColors CONTAINS 'red'", [], #"favoriteColors CONTAINS "red""#),
            ("'red' IN favoriteColors", [], #""red" IN favoriteColors"#),
            ("%K CONTAINS %@", ["favoriteColors", "red"], #"favoriteColors CONTAINS "red""#),
        ]
        let records = try [
            #"{"favoriteColors": ["red", "blue"]}"#,
            #"{"favoriteColors": ["green"]}"#,
            #"{"favoriteColors": []}"#,
            #"{"favoriteColors": ["reddish"]}"#,
            #"{}"#,
        ].map(Self.record)
        for (format, arguments, canonical) in spellings {
            #expect(try FormatPredicate(format: format, argumentArray: arguments).predicateFormat == canonical)
            let results = try records.map { try Self.matches(format, arguments, $0) }
            #expect(results == [true, false, false, false, false], "\(format)")
        }
    }

    // Listing 3: matching a field to one or more values.
    @Test func listing3MatchesOneOfSeveralValues() throws {
        let spellings = ["ANY { 'red', 'green' } = favoriteColor", "favoriteColor IN { 'red', 'green' }"]
        #expect(try FormatPredicate(format: spellings[0]).predicateFormat == #"ANY {"red", "green"} == favoriteColor"#)
        #expect(try FormatPredicate(format: spellings[1]).predicateFormat == #"favoriteColor IN {"red", "green"}"#)
        let records = try [#"{"favoriteColor": "red"}"#, #"{"favoriteColor": "green"}"#, #"{"favoriteColor": "blue"}"#, #"{}"#].map(Self.record)
        for format in spellings {
            #expect(try records.map { try Self.matches(format, [], $0) } == [true, true, false, false], "\(format)")
        }
    }

    // Listing 4: BEGINSWITH, case-sensitive; matches red, reddish, red green duct tape.
    @Test func listing4BeginsWith() throws {
        let records = try [
            #"{"favoriteColors": ["red"]}"#, #"{"favoriteColors": ["blue", "reddish"]}"#,
            #"{"favoriteColors": ["red green duct tape"]}"#, #"{"favoriteColors": ["Red"]}"#,
            #"{"favoriteColors": ["bred"]}"#,
        ].map(Self.record)
        for (format, arguments) in [("ANY favoriteColors BEGINSWITH 'red'", [Value]()), ("ANY favoriteColors BEGINSWITH %@", ["red"])] {
            #expect(try FormatPredicate(format: format, argumentArray: arguments).predicateFormat == #"ANY favoriteColors BEGINSWITH "red""#)
            #expect(try records.map { try Self.matches(format, arguments, $0) } == [true, true, true, false, false])
        }
    }

    // Listings 5 and 6: tokenized full-text search over the record's string fields.
    @Test func listings5And6FullTextSearch() throws {
        let bob = try Self.record(#"{"first": "Bob", "last": "Jones"}"#)
        let smith = try Self.record(#"{"first": "Anna", "last": "Smith", "age": 40}"#)
        let both = try Self.record(#"{"name": "BÔB SMITH"}"#)
        let neither = try Self.record(#"{"name": "Bobby Smithers", "note": "the"}"#)
        let any = "self contains 'bob smith'"
        #expect(try FormatPredicate(format: any).predicateFormat == #"SELF CONTAINS "bob smith""#)
        #expect(try [bob, smith, both, neither].map { try Self.matches(any, [], $0) } == [true, true, true, false])
        let all = "self contains 'bob' AND self contains 'smith'"
        #expect(try FormatPredicate(format: all).predicateFormat == #"SELF CONTAINS "bob" AND SELF CONTAINS "smith""#)
        #expect(try [bob, smith, both, neither].map { try Self.matches(all, [], $0) } == [false, false, true, false])
        // Stop words are ignored: "the" alone matches nothing, and "the bob" is "bob".
        #expect(try !Self.matches("self contains 'the'", [], neither))
        #expect(try Self.matches("self contains 'the bob'", [], bob))
    }

    // The seed prints Listing 6 with typographic quotes (‘smith’”): a clear error, not a crash.
    @Test func typographicQuotesAreASyntaxError() throws {
        #expect(throws: FormatPredicateError.self) {
            try FormatPredicate(format: "self contains 'bob' AND self contains ‘smith’”")
        }
    }

    // Listing 7: within 10 km of a fixed location.
    @Test func listing7Distance() throws {
        let fixed = Value.location(Location(latitude: 37.331913, longitude: -122.030210))
        let format = "distanceToLocation:fromLocation:(location, %@) < %f"
        let predicate = try FormatPredicate(format: format, argumentArray: [fixed, 10_000.0])
        #expect(predicate.predicateFormat == #"distanceToLocation:fromLocation:(location, CAST({37.331913, -122.03021}, "CLLocation")) < 10000"#)
        let nearby = try Self.record(#"{"location": {"$location": [37.3861, -122.0839]}}"#)  // Mountain View, about 7.6 km
        let sanFrancisco = try Self.record(#"{"location": {"$location": [37.7749, -122.4194]}}"#)
        let noLocation = try Self.record(#"{}"#)
        #expect(try [nearby, sanFrancisco, noLocation].map { try CompiledPredicate(predicate).evaluate(value: $0) } == [true, false, false])
        #expect(PredicateRules.cloudKit.violations(in: predicate).isEmpty)
    }

    // Listing 8: every record.
    @Test func listing8TruePredicate() throws {
        #expect(try FormatPredicate(format: "TRUEPREDICATE").predicateFormat == "TRUEPREDICATE")
        #expect(try Self.matches("TRUEPREDICATE", [], .null))
    }

    // Every listing of the CKQuery reference passes the CloudKit rules.
    @Test func everyCKQueryListingPassesTheCloudKitRules() throws {
        let listings: [(String, [Value])] = [
            ("employee == %@", [.reference(Reference(recordName: "e"))]),
            ("ANY favoriteColors = 'red'", []), ("favoriteColors CONTAINS 'red'", []), ("'red' IN favoriteColors", []),
            ("%K CONTAINS %@", ["favoriteColors", "red"]), ("ANY { 'red', 'green' } = favoriteColor", []),
            ("favoriteColor IN { 'red', 'green' }", []), ("ANY favoriteColors BEGINSWITH 'red'", []),
            ("ANY favoriteColors BEGINSWITH %@", ["red"]), ("self contains 'bob smith'", []),
            ("self contains 'bob' AND self contains 'smith'", []),
            ("distanceToLocation:fromLocation:(location, %@) < %f", [.location(Location(latitude: 37.331913, longitude: -122.030210)), 10_000.0]),
            ("TRUEPREDICATE", []),
        ]
        for (format, arguments) in listings {
            let predicate = try FormatPredicate(format: format, argumentArray: arguments)
            #expect(PredicateRules.cloudKit.violations(in: predicate) == [], "\(format)")
        }
    }

    // The Query package README (seed 004).
    @Test func queryPackageReadmePredicates() throws {
        let alice = try Self.record(#"{"quantity": 1, "name": "Alice"}"#)
        let bob = try Self.record(#"{"quantity": 2, "name": "Bob"}"#)
        let carol = try Self.record(#"{"quantity": 0, "name": "Carol"}"#)
        let records = [alice, bob, carol]
        let cases: [(String, [Value], String, [Bool])] = [
            ("quantity == 1", [], "quantity == 1", [true, false, false]),
            ("quantity == %d", [1], "quantity == 1", [true, false, false]),
            ("name == %@", ["Alice"], #"name == "Alice""#, [true, false, false]),
            ("%K == %@", ["name", "Alice"], #"name == "Alice""#, [true, false, false]),
            ("quantity == 1 AND name == %@", ["Alice"], #"quantity == 1 AND name == "Alice""#, [true, false, false]),
            ("quantity == 1 OR name == %@", ["Bob"], #"quantity == 1 OR name == "Bob""#, [true, true, false]),
            ("(quantity == 1 AND name == %@) OR name == %@", ["Alice", "Bob"], #"(quantity == 1 AND name == "Alice") OR name == "Bob""#, [true, true, false]),
            ("quantity < 1", [], "quantity < 1", [false, false, true]),
            ("quantity BETWEEN (1,3)", [], "quantity BETWEEN {1, 3}", [true, true, false]),
        ]
        for (format, arguments, canonical, expected) in cases {
            let predicate = try FormatPredicate(format: format, argumentArray: arguments)
            #expect(predicate.predicateFormat == canonical)
            #expect(try records.map { try CompiledPredicate(predicate).evaluate(value: $0) } == expected, "\(format)")
        }
    }
}

import Foundation
import Testing
import PredicateLanguage

/// Every operator, option, literal form, argument specifier and function: parsed,
/// printed (exact canonical string), printed-then-parsed (round trip) and
/// evaluated (exact result) against one sample object.
@Suite("Language table: parse, print, round trip, evaluate")
struct LanguageTableTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var format: String
        var arguments: [Value] = []
        var canonical: String
        var result: Bool
        var variables: [String: Value] = [:]
        var testDescription: String { format }
    }

    static let sample: Value = {
        let text = #"""
        {"name": "Saint-Étienne", "population": 171057, "countrycode": "FR",
         "tags": ["city", "loire"], "scores": [3, 5, 7],
         "address": {"city": "Lyon", "zip": "69001"}, "nothing": null, "ratio": 0.5, "flag": true,
         "location": {"$location": [45.43, 4.39]}, "founded": {"$date": "1900-01-01T00:00:00Z"},
         "items": [{"name": "a", "price": 10}, {"name": "b", "price": 20}],
         "owner": {"$ref": "person-1"}, "IN": 1}
        """#
        return (try? Value(jsonText: text)) ?? .null
    }()

    static let lyon = Value.location(Location(latitude: 45.76, longitude: 4.84))

    static let cases: [Case] = [
        // Comparison operators and their spellings.
        Case(format: "population == 171057", canonical: "population == 171057", result: true),
        Case(format: "population = 171057", canonical: "population == 171057", result: true),
        Case(format: "population != 5", canonical: "population != 5", result: true),
        Case(format: "population <> 171057", canonical: "population != 171057", result: false),
        Case(format: "population > 171056", canonical: "population > 171056", result: true),
        Case(format: "population >= 171057", canonical: "population >= 171057", result: true),
        Case(format: "population => 171058", canonical: "population >= 171058", result: false),
        Case(format: "population < 171057", canonical: "population < 171057", result: false),
        Case(format: "population <= 171057", canonical: "population <= 171057", result: true),
        Case(format: "population =< 1", canonical: "population <= 1", result: false),
        Case(format: "population BETWEEN {100000, 200000}", canonical: "population BETWEEN {100000, 200000}", result: true),
        Case(format: "population between { 1, 2 }", canonical: "population BETWEEN {1, 2}", result: false),
        // String operators and options.
        Case(format: "name BEGINSWITH 'Saint'", canonical: #"name BEGINSWITH "Saint""#, result: true),
        Case(format: "name BEGINSWITH 'saint'", canonical: #"name BEGINSWITH "saint""#, result: false),
        Case(format: "name beginswith[c] 'saint'", canonical: #"name BEGINSWITH[c] "saint""#, result: true),
        Case(format: "name ENDSWITH 'Étienne'", canonical: #"name ENDSWITH "Étienne""#, result: true),
        Case(format: "name ENDSWITH 'etienne'", canonical: #"name ENDSWITH "etienne""#, result: false),
        Case(format: "name ENDSWITH[d] 'Etienne'", canonical: #"name ENDSWITH[d] "Etienne""#, result: true),
        Case(format: "name ENDSWITH[cd] 'ETIENNE'", canonical: #"name ENDSWITH[cd] "ETIENNE""#, result: true),
        Case(format: "name CONTAINS '-'", canonical: #"name CONTAINS "-""#, result: true),
        Case(format: "name CONTAINS[c] 'SAINT'", canonical: #"name CONTAINS[c] "SAINT""#, result: true),
        Case(format: "name LIKE 'Saint-*'", canonical: #"name LIKE "Saint-*""#, result: true),
        Case(format: "name LIKE 'S?int*'", canonical: #"name LIKE "S?int*""#, result: true),
        Case(format: "name LIKE 'Saint'", canonical: #"name LIKE "Saint""#, result: false),
        Case(format: "name LIKE[c] 'saint-*'", canonical: #"name LIKE[c] "saint-*""#, result: true),
        Case(format: "name MATCHES 'Saint-.*'", canonical: #"name MATCHES "Saint-.*""#, result: true),
        Case(format: "name MATCHES 'Saint'", canonical: #"name MATCHES "Saint""#, result: false),
        Case(format: "name ==[n] 'Saint-Étienne'", canonical: #"name ==[n] "Saint-Étienne""#, result: true),
        Case(format: "name ==[cd] 'saint-etienne'", canonical: #"name ==[cd] "saint-etienne""#, result: true),
        Case(format: "name < 'T'", canonical: #"name < "T""#, result: true),
        // IN and CONTAINS on collections and strings.
        Case(format: "countrycode IN {'FR', 'DE'}", canonical: #"countrycode IN {"FR", "DE"}"#, result: true),
        Case(format: "countrycode IN[c] {'fr', 'de'}", canonical: #"countrycode IN[c] {"fr", "de"}"#, result: true),
        Case(format: "'F' IN countrycode", canonical: #""F" IN countrycode"#, result: true),
        Case(format: "tags CONTAINS 'loire'", canonical: #"tags CONTAINS "loire""#, result: true),
        Case(format: "'city' IN tags", canonical: #""city" IN tags"#, result: true),
        // Aggregate qualifiers.
        Case(format: "ANY tags == 'city'", canonical: #"ANY tags == "city""#, result: true),
        Case(format: "SOME tags == 'city'", canonical: #"ANY tags == "city""#, result: true),
        Case(format: "ALL tags BEGINSWITH 'c'", canonical: #"ALL tags BEGINSWITH "c""#, result: false),
        Case(format: "ALL scores > 2", canonical: "ALL scores > 2", result: true),
        Case(format: "NONE tags == 'x'", canonical: #"NOT ANY tags == "x""#, result: true),
        Case(format: "ANY scores > 6", canonical: "ANY scores > 6", result: true),
        Case(format: "ANY {'red', 'city'} == tags", canonical: #"ANY {"red", "city"} == tags"#, result: false),
        // Compound predicates and precedence.
        Case(format: "population > 1 AND countrycode == 'FR'", canonical: #"population > 1 AND countrycode == "FR""#, result: true),
        Case(format: "population > 1 && countrycode == 'DE'", canonical: #"population > 1 AND countrycode == "DE""#, result: false),
        Case(format: "population < 1 || countrycode == 'FR'", canonical: #"population < 1 OR countrycode == "FR""#, result: true),
        Case(format: "NOT population > 1", canonical: "NOT population > 1", result: false),
        Case(format: "!(population > 1)", canonical: "NOT population > 1", result: false),
        Case(format: "a == 1 OR b == 2 AND c == 3", canonical: "a == 1 OR (b == 2 AND c == 3)", result: false),
        Case(format: "(a == 1 OR b == 2) AND c == 3", canonical: "(a == 1 OR b == 2) AND c == 3", result: false),
        Case(format: "a == 1 AND b == 2 AND c == 3", canonical: "a == 1 AND b == 2 AND c == 3", result: false),
        Case(format: "(a == nil AND b == nil) AND c == nil", canonical: "(a == nil AND b == nil) AND c == nil", result: true),
        Case(format: "NOT (flag == YES AND ratio > 1)", canonical: "NOT (flag == 1 AND ratio > 1)", result: true),
        Case(format: "TRUEPREDICATE", canonical: "TRUEPREDICATE", result: true),
        Case(format: "FALSEPREDICATE", canonical: "FALSEPREDICATE", result: false),
        Case(format: "truepredicate OR falsepredicate", canonical: "TRUEPREDICATE OR FALSEPREDICATE", result: true),
        // Literals.
        Case(format: "nothing == nil", canonical: "nothing == nil", result: true),
        Case(format: "nothing == NULL", canonical: "nothing == nil", result: true),
        Case(format: "missing == NIL", canonical: "missing == nil", result: true),
        Case(format: "nothing != nil", canonical: "nothing != nil", result: false),
        Case(format: "nothing > 1", canonical: "nothing > 1", result: false),
        Case(format: "flag == YES", canonical: "flag == 1", result: true),
        Case(format: "flag == TRUE", canonical: "flag == 1", result: true),
        Case(format: "flag == NO", canonical: "flag == 0", result: false),
        Case(format: "flag == false", canonical: "flag == 0", result: false),
        Case(format: "ratio == 0.5", canonical: "ratio == 0.5", result: true),
        Case(format: "ratio < 1e3", canonical: "ratio < 1000", result: true),
        Case(format: "ratio > 2.5E-1", canonical: "ratio > 0.25", result: true),
        Case(format: "population == 0x29C31", canonical: "population == 171057", result: true),
        Case(format: "population == 0o516061", canonical: "population == 171057", result: true),
        Case(format: "population == 0b101001110000110001", canonical: "population == 171057", result: true),
        Case(format: "population > -5", canonical: "population > -5", result: true),
        Case(format: #"name == "Saint-\u00c9tienne""#, canonical: #"name == "Saint-Étienne""#, result: true),
        Case(format: #"'a"b' == "a\"b""#, canonical: #""a\"b" == "a\"b""#, result: true),
        Case(format: "'42' == 42", canonical: #""42" == 42"#, result: false),
        Case(format: "#IN == 1", canonical: "#IN == 1", result: true),
        Case(format: "SELF.population == 171057", canonical: "population == 171057", result: true),
        // Key paths, indexes and collection operators.
        Case(format: "address.city == 'Lyon'", canonical: #"address.city == "Lyon""#, result: true),
        Case(format: "scores[0] == 3", canonical: "scores[0] == 3", result: true),
        Case(format: "scores[5] == nil", canonical: "scores[5] == nil", result: true),
        Case(format: "scores[FIRST] == 3", canonical: "scores[FIRST] == 3", result: true),
        Case(format: "scores[LAST] == 7", canonical: "scores[LAST] == 7", result: true),
        Case(format: "scores[SIZE] == 3", canonical: "scores[SIZE] == 3", result: true),
        Case(format: "scores.@count == 3", canonical: "scores.@count == 3", result: true),
        Case(format: "scores.@sum == 15", canonical: "scores.@sum == 15", result: true),
        Case(format: "scores.@avg == 5", canonical: "scores.@avg == 5", result: true),
        Case(format: "scores.@min == 3", canonical: "scores.@min == 3", result: true),
        Case(format: "scores.@max == 7", canonical: "scores.@max == 7", result: true),
        Case(format: "items.@sum.price == 30", canonical: "items.@sum.price == 30", result: true),
        Case(format: "ANY items.price == 20", canonical: "ANY items.price == 20", result: true),
        Case(format: "items[LAST].name == 'b'", canonical: #"items[LAST].name == "b""#, result: true),
        // Arithmetic.
        Case(format: "population + 1 == 171058", canonical: "population + 1 == 171058", result: true),
        Case(format: "population - 57 == 171000", canonical: "population - 57 == 171000", result: true),
        Case(format: "population * 2 > 300000", canonical: "population * 2 > 300000", result: true),
        Case(format: "population / 2 > 85000", canonical: "population / 2 > 85000", result: true),
        Case(format: "2 ** 10 == 1024", canonical: "2 ** 10 == 1024", result: true),
        Case(format: "(1 + 2) * 3 == 9", canonical: "(1 + 2) * 3 == 9", result: true),
        Case(format: "1 + 2 * 3 == 7", canonical: "1 + (2 * 3) == 7", result: true),
        Case(format: "-population < 0", canonical: "-population < 0", result: true),
        // Functions.
        Case(format: "abs:(-5) == 5", canonical: "abs:(-5) == 5", result: true),
        Case(format: "sum:(scores) == 15", canonical: "sum:(scores) == 15", result: true),
        Case(format: "count:(tags) == 2", canonical: "count:(tags) == 2", result: true),
        Case(format: "min:(scores) == 3", canonical: "min:(scores) == 3", result: true),
        Case(format: "max:(scores) == 7", canonical: "max:(scores) == 7", result: true),
        Case(format: "average:(scores) == 5", canonical: "average:(scores) == 5", result: true),
        Case(format: "median:(scores) == 5", canonical: "median:(scores) == 5", result: true),
        Case(format: "sqrt:(16) == 4", canonical: "sqrt:(16) == 4", result: true),
        Case(format: "raise:toPower:(2, 10) == 1024", canonical: "raise:toPower:(2, 10) == 1024", result: true),
        Case(format: "modulus:by:(10, 3) == 1", canonical: "modulus:by:(10, 3) == 1", result: true),
        Case(format: "floor:(ratio) == 0", canonical: "floor:(ratio) == 0", result: true),
        Case(format: "ceiling:(ratio) == 1", canonical: "ceiling:(ratio) == 1", result: true),
        Case(format: "lowercase:(countrycode) == 'fr'", canonical: #"lowercase:(countrycode) == "fr""#, result: true),
        Case(format: "uppercase:(name) == 'SAINT-ÉTIENNE'", canonical: #"uppercase:(name) == "SAINT-ÉTIENNE""#, result: true),
        Case(format: "now() > founded", canonical: "now() > founded", result: true),
        Case(format: "founded < CAST(0, 'NSDate')", canonical: #"founded < CAST(0.000000, "NSDate")"#, result: true),
        Case(format: "founded == CAST(-3187296000, 'NSDate')", canonical: #"founded == CAST(-3187296000.000000, "NSDate")"#, result: true),
        Case(format: "CAST('42', 'NSNumber') == 42", canonical: "42 == 42", result: true),
        Case(format: "distanceToLocation:fromLocation:(location, %@) < 60000", arguments: [lyon],
             canonical: #"distanceToLocation:fromLocation:(location, CAST({45.76, 4.84}, "CLLocation")) < 60000"#, result: true),
        Case(format: "distanceToLocation:fromLocation:(location, %@) < 10000", arguments: [lyon],
             canonical: #"distanceToLocation:fromLocation:(location, CAST({45.76, 4.84}, "CLLocation")) < 10000"#, result: false),
        Case(format: "SUBQUERY(items, $item, $item.price > 15).@count == 1",
             canonical: "SUBQUERY(items, $item, $item.price > 15).@count == 1", result: true),
        Case(format: "TERNARY(population > 100000, 'big', 'small') == 'big'",
             canonical: #"TERNARY(population > 100000, "big", "small") == "big""#, result: true),
        Case(format: "owner == %@", arguments: [.reference(Reference(recordName: "person-1"))],
             canonical: #"owner == CAST("person-1", "CKReference")"#, result: true),
        // Format arguments.
        Case(format: "%K == %@", arguments: ["countrycode", "FR"], canonical: #"countrycode == "FR""#, result: true),
        Case(format: "%K == %@", arguments: ["address.city", "Lyon"], canonical: #"address.city == "Lyon""#, result: true),
        Case(format: "population > %d", arguments: [100_000], canonical: "population > 100000", result: true),
        Case(format: "population > %i", arguments: [100_000], canonical: "population > 100000", result: true),
        Case(format: "population > %ld", arguments: [100_000], canonical: "population > 100000", result: true),
        Case(format: "population > %lld", arguments: [100_000], canonical: "population > 100000", result: true),
        Case(format: "population > %u", arguments: [100_000], canonical: "population > 100000", result: true),
        Case(format: "ratio > %f", arguments: [0.25], canonical: "ratio > 0.25", result: true),
        Case(format: "ratio > %lf", arguments: [0.75], canonical: "ratio > 0.75", result: false),
        Case(format: "ratio > %g", arguments: [0.125], canonical: "ratio > 0.125", result: true),
        Case(format: "tags CONTAINS %@", arguments: ["city"], canonical: #"tags CONTAINS "city""#, result: true),
        Case(format: "countrycode IN %@", arguments: [["FR", "BE"]], canonical: #"countrycode IN {"FR", "BE"}"#, result: true),
        Case(format: "nothing == %@", arguments: [.null], canonical: "nothing == <null>", result: true),
        Case(format: "nothing == nil", canonical: "nothing == nil", result: true),
        Case(format: "name == '%@'", canonical: #"name == "%@""#, result: false),
        // Variables.
        Case(format: "population > $LIMIT", canonical: "population > $LIMIT", result: true, variables: ["LIMIT": 1000]),
        Case(format: "ANY tags == $TAG", canonical: "ANY tags == $TAG", result: false, variables: ["TAG": "sea"]),
    ]

    @Test(arguments: cases)
    func parsesPrintsAndEvaluates(_ testCase: Case) throws {
        let predicate = try FormatPredicate(format: testCase.format, argumentArray: testCase.arguments)
        #expect(predicate.predicateFormat == testCase.canonical)
        // Round trip: the printed form parses back to an equal tree that prints the same.
        let reparsed = try FormatPredicate(format: predicate.predicateFormat)
        #expect(reparsed == predicate)
        #expect(reparsed.predicateFormat == testCase.canonical)
        // Evaluation.
        let result = try CompiledPredicate(predicate).evaluate(value: LanguageTableTests.sample, variables: testCase.variables)
        #expect(result == testCase.result)
        // Substituting the variables first gives the same answer.
        if !testCase.variables.isEmpty {
            let bound = predicate.substituting(testCase.variables)
            #expect(bound.variableNames.isEmpty)
            #expect(try CompiledPredicate(bound).evaluate(value: LanguageTableTests.sample) == testCase.result)
        }
    }
}

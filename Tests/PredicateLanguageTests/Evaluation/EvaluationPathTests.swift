import Foundation
import PredicateLanguage
import Testing

/// The evaluator reads `SELF` along several paths: a `[String: Value]` directly (with fused
/// key comparisons), a `Value`, any other `KeyValueReadable` borrowed in place, and a
/// `FieldLayoutReadable` through field readers resolved when compiling. Every path must give
/// exactly the answers (and errors) of the others, for every kind of predicate.
@Suite("Evaluation paths: dictionaries, values, other objects and field layouts agree")
struct EvaluationPathTests {
    /// A record with a fixed field layout: slots resolved by name once, a computed key, and
    /// keys with no reader (read through `value(forKey:)`).
    struct SlottedRecord: FieldLayoutReadable {
        static let slotNames = ["name", "population", "country", "tags", "items", "address", "score", "nothing"]
        static let slots = Dictionary(uniqueKeysWithValues: slotNames.enumerated().map { ($1, $0) })

        /// The values by slot; `.null` where the record has no such field.
        var values: [Value]
        /// The fields missing from the slots, read by name.
        var extra: [String: Value]
        /// All the fields, for `SELF` and full text.
        var fields: [String: Value]

        init(_ fields: [String: Value]) {
            values = Self.slotNames.map { fields[$0] ?? .null }
            extra = fields.filter { Self.slots[$0.key] == nil && $0.key != "nameLength" }
            self.fields = fields
        }

        /// The fields with the computed `nameLength`, as the record reads them.
        static func withComputedFields(_ fields: [String: Value]) -> [String: Value] {
            var fields = fields
            if case .string(let name)? = fields["name"] { fields["nameLength"] = .int(Int64(name.utf16.count)) }
            return fields
        }

        func value(forKey key: String) -> Value {
            if key == "nameLength" {
                if case .string(let name) = values[0] { return .int(Int64(name.utf16.count)) }
                return .null
            }
            if let slot = Self.slots[key] { return values[slot] }
            return extra[key] ?? .null
        }

        func fullTextValues() -> [String] { fields.fullTextValues() }

        func evaluatedObjectValue() -> Value { .object(fields) }

        static func fieldReader(forKey key: String) -> FieldReader<SlottedRecord>? {
            if key == "nameLength" {
                return FieldReader { record in
                    if case .string(let name) = record.values[0] { return .int(Int64(name.utf16.count)) }
                    return .null
                }
            }
            guard let slot = slots[key] else { return nil }
            return FieldReader { $0.values[slot] }
        }
    }

    /// A dictionary behind a plain `KeyValueReadable` conformance (the generic, borrowed path).
    struct WrappedFields: KeyValueReadable {
        var fields: [String: Value]
        func value(forKey key: String) -> Value { fields[key] ?? .null }
        func fullTextValues() -> [String] { fields.fullTextValues() }
        func evaluatedObjectValue() -> Value { .object(fields) }
    }

    static let records: [[String: Value]] = [
        [
            "name": "Strasbourg", "population": 290_576, "country": "FR", "tags": ["capital", "europe"],
            "items": [["price": 2, "kind": "a"], ["price": 7.5, "kind": "b"], ["price": .null, "kind": "a"]],
            "address": ["city": "Strasbourg", "zip": "67000", "lines": ["1 rue", "Bâtiment B"]],
            "score": 3.5, "nothing": .null, "elsewhere": "extra field",
        ],
        ["name": "saint-étienne", "population": 171_057, "country": "FR", "tags": [], "items": [], "score": .null],
        ["name": "Ärhus", "population": 100_000, "country": "DK", "tags": ["harbour"], "address": ["city": "Aarhus"]],
        ["population": 42.0, "country": 7, "tags": "not a list", "items": [["price": 1]], "address": .null],
        [:],
    ]

    static let formats: [String] = [
        // Fused key comparisons and their neighbours.
        #"population > 100000 AND country == "FR" AND name BEGINSWITH[c] "s""#,
        "population >= 100000", "population < 200000.5", "population == 171057", "population != 171057",
        #"country == "FR""#, #"country != "FR""#, "country == 7", "score > 3", "score <= 3.5", "score == nil",
        "nothing == nil", "nothing != nil", "missing == nil", "missing > 1", #"missing == "FR""#,
        #"name ==[cd] "arhus""#, #"name BEGINSWITH[cd] "SAINT""#, #"name ENDSWITH "bourg""#, #"name LIKE[c] "s*g""#,
        #"name MATCHES "S.*""#, #"name IN {"Ärhus", "Paris"}"#, #"name IN[c] {"ärhus"}"#, "population BETWEEN {100000, 200000}",
        // Keys through a layout's computed reader and keys with no reader.
        "nameLength == 10", "nameLength > 5", #"elsewhere == "extra field""#, "elsewhere == nil",
        // Lists.
        #"ANY tags == "europe""#, #"ALL tags BEGINSWITH "c""#, #"NONE tags == "harbour""#, #"tags CONTAINS "capital""#,
        #""europe" IN tags"#, "tags.@count == 2", "tags[FIRST] == 'capital'", "tags[SIZE] > 0", "tags[1] == 'europe'",
        // Key paths with dots, collection operators and KVC on values.
        #"address.city == "Strasbourg""#, "address.lines.@count == 2", "address.zip.intValue > 60000",
        "name.length > 9", "name.uppercaseString BEGINSWITH 'STR'", "items.price.@sum > 9", "items.@sum.price > 9",
        "items.@count == 3", "items.@avg.price > 1", "items.@max.price == 7.5", "ANY items.price > 5",
        "items.@distinctUnionOfObjects.kind.@count == 2", "ALL items.kind IN {'a', 'b'}",
        // SUBQUERY, with the root read inside.
        "SUBQUERY(items, $x, $x.price > 1).@count == 2",
        "SUBQUERY(items, $x, $x.kind == 'a' AND population > 200000).@count == 2",
        "SUBQUERY(items, $x, SUBQUERY(items, $y, $y.kind == $x.kind).@count > 1).@count >= 2",
        // SELF, full text, variables, functions, arithmetic, ternary.
        #"SELF.name == "Ärhus""#, #"self CONTAINS "capital""#, #"self CONTAINS "harbour bay""#,
        "population > $limit", "name == $name", "population * 2 > 300000", "-population < -150000",
        "FUNCTION(population, 'abs:') > 150000", "TERNARY(population > 150000, name, country) == 'FR'",
        "count:(tags) == 2", "uppercase:(name) == 'STRASBOURG'",
        // Logic.
        "NOT (population > 100000)", "population > 1000000 OR name == 'Ärhus'", "TRUEPREDICATE", "FALSEPREDICATE",
        "population > 100000 AND country == 'FR' AND tags.@count > 0 AND score > 1",
        "population < 1 OR country == 'DK' OR name == nil OR score == 3.5",
    ]

    static let variables: [String: Value] = ["limit": 150_000, "name": "Ärhus"]

    /// The answer, or the error's description.
    private static func outcome(_ body: () throws -> Bool) -> String {
        do {
            return String(try body())
        } catch {
            return "error: \(error)"
        }
    }

    private static func genericOutcome<Object: KeyValueReadable>(
        _ compiled: CompiledPredicate, _ object: Object, variables: [String: Value]
    ) -> String {
        outcome { try compiled.evaluate(object, variables: variables) }
    }

    /// The outcome on every path, which must all agree; returns it.
    @discardableResult
    private static func agreedOutcome(
        _ format: String, on record: [String: Value], options: EvaluationOptions = .init(),
        variables: [String: Value] = variables, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let fields = SlottedRecord.withComputedFields(record)
        let predicate = try FormatPredicate(format: format)
        let plain = try CompiledPredicate(predicate, options: options)
        let layout = try CompiledPredicate(predicate, options: options, layout: SlottedRecord.self)
        let outcomes: [(String, String)] = [
            ("dictionary", outcome { try plain.evaluate(fields, variables: variables) }),
            ("dictionary, generic", genericOutcome(plain, fields, variables: variables)),
            ("value", outcome { try plain.evaluate(value: .object(fields), variables: variables) }),
            ("value, generic", genericOutcome(plain, Value.object(fields), variables: variables)),
            ("wrapped", genericOutcome(plain, WrappedFields(fields: fields), variables: variables)),
            ("slotted, by name", genericOutcome(plain, SlottedRecord(fields), variables: variables)),
            ("slotted, by layout", genericOutcome(layout, SlottedRecord(fields), variables: variables)),
            ("dictionary, layout-compiled", outcome { try layout.evaluate(fields, variables: variables) }),
        ]
        let expected = outcomes[0].1
        for (path, result) in outcomes.dropFirst() {
            #expect(result == expected, "\(format) on \(fields): \(path) gives \(result), the dictionary \(expected)",
                    sourceLocation: sourceLocation)
        }
        return expected
    }

    @Test func everyPathAgreesOnEveryPredicateAndRecord() throws {
        for format in Self.formats {
            for record in Self.records {
                try Self.agreedOutcome(format, on: record)
            }
        }
    }

    @Test func exactAnswersOnTheFastPaths() throws {
        let strasbourg = Self.records[0]
        let saintEtienne = Self.records[1]
        let aarhus = Self.records[2]
        let odd = Self.records[3]
        let format = #"population > 100000 AND country == "FR" AND name BEGINSWITH[c] "s""#
        #expect(try Self.agreedOutcome(format, on: strasbourg) == "true")
        #expect(try Self.agreedOutcome(format, on: saintEtienne) == "true")
        #expect(try Self.agreedOutcome(format, on: aarhus) == "false")
        // A double compares with an integer constant by value; a number is never a string.
        #expect(try Self.agreedOutcome("population > 41", on: odd) == "true")
        #expect(try Self.agreedOutcome("population == 42", on: odd) == "true")
        #expect(try Self.agreedOutcome(#"country == "7""#, on: odd) == "false")
        #expect(try Self.agreedOutcome("country != 7", on: odd) == "false")
        // Missing, nil and present.
        #expect(try Self.agreedOutcome("missing == nil", on: strasbourg) == "true")
        #expect(try Self.agreedOutcome("missing != 3", on: strasbourg) == "true")
        #expect(try Self.agreedOutcome("missing < 3", on: strasbourg) == "false")
        #expect(try Self.agreedOutcome("score == nil", on: saintEtienne) == "true")
        #expect(try Self.agreedOutcome("score > 3", on: saintEtienne) == "false")
        // A computed field and a field no reader covers.
        #expect(try Self.agreedOutcome("nameLength == 10", on: strasbourg) == "true")
        #expect(try Self.agreedOutcome(#"elsewhere == "extra field""#, on: strasbourg) == "true")
        // Lists, dotted paths, @count, SUBQUERY.
        #expect(try Self.agreedOutcome("tags.@count == 2", on: strasbourg) == "true")
        #expect(try Self.agreedOutcome("tags.@count == 0", on: saintEtienne) == "true")
        #expect(try Self.agreedOutcome("address.lines.@count == 2", on: strasbourg) == "true")
        #expect(try Self.agreedOutcome("address.zip.intValue == 67000", on: strasbourg) == "true")
        #expect(try Self.agreedOutcome("items.@sum.price == 9.5", on: strasbourg) == "true")
        #expect(try Self.agreedOutcome("SUBQUERY(items, $x, $x.kind == 'a' AND population > 200000).@count == 2", on: strasbourg) == "true")
        #expect(try Self.agreedOutcome("SUBQUERY(items, $x, $x.kind == 'a' AND population > 200000).@count == 0", on: saintEtienne) == "true")
        // SELF and full text.
        #expect(try Self.agreedOutcome(#"self CONTAINS "europe""#, on: strasbourg) == "true")
        #expect(try Self.agreedOutcome(#"SELF.name == "Ärhus""#, on: aarhus) == "true")
    }

    @Test func errorsAreTheSameOnEveryPath() throws {
        let strasbourg = Self.records[0]
        // An unbound variable, on every path.
        #expect(try Self.agreedOutcome("population > $unbound", on: strasbourg, variables: [:])
            == "error: \(FormatPredicateError.unboundVariable("unbound"))")
        // A variable used as a key must be a string.
        let keyed = try Self.agreedOutcome("SELF.$key == 1", on: strasbourg, variables: ["key": 3])
        #expect(keyed.hasPrefix("error: "))
    }

    @Test func theStepBudgetStopsEveryPathAlike() throws {
        let strasbourg = Self.records[0]
        let limited = EvaluationOptions(maximumEvaluationSteps: 2)
        let message = "error: " + FormatPredicateError.evaluation(
            "evaluation took more than 2 steps (collection members visited by SUBQUERY, ANY, ALL, NONE "
                + "and collection operators) for one object; raise EvaluationOptions.maximumEvaluationSteps to allow more"
        ).description
        // Three items: ANY, a collection operator and SUBQUERY each visit three members.
        #expect(try Self.agreedOutcome("ANY items.price > 100", on: strasbourg, options: limited) == message)
        #expect(try Self.agreedOutcome("items.@sum.price > 1", on: strasbourg, options: limited) == message)
        #expect(try Self.agreedOutcome("SUBQUERY(items, $x, $x.price > 1).@count > 0", on: strasbourg, options: limited) == message)
        // @count visits nothing; a short-circuited operand spends nothing.
        #expect(try Self.agreedOutcome("items.@count == 3", on: strasbourg, options: limited) == "true")
        #expect(try Self.agreedOutcome("population < 0 AND ANY items.price > 100", on: strasbourg, options: limited) == "false")
        // The budget is per evaluation: a second object starts afresh.
        let compiled = try CompiledPredicate(FormatPredicate(format: "ANY tags == 'x'"), options: limited, layout: SlottedRecord.self)
        for _ in 0..<3 {
            #expect(try compiled.evaluate(SlottedRecord(strasbourg)) == false)
            #expect(try compiled.evaluate(strasbourg) == false)
        }
    }

    @Test func longConjunctionsOfFusedComparisonsRunInOrder() throws {
        // Fifty thousand fused comparisons: the first runs the rest, which loop (no deep nesting).
        let holds = FormatPredicate.comparison(ComparisonPredicate(.keyPath("population"), .greaterThan, .constant(1)))
        let fails = FormatPredicate.comparison(ComparisonPredicate(.keyPath("country"), .equalTo, .constant("XX")))
        let unbound = FormatPredicate.comparison(ComparisonPredicate(.keyPath("population"), .greaterThan, .variable("unbound")))
        let strasbourg = Self.records[0]
        let all = FormatPredicate.and(Array(repeating: holds, count: 50_000))
        #expect(try CompiledPredicate(all).evaluate(strasbourg) == true)
        #expect(try CompiledPredicate(.and(Array(repeating: holds, count: 49_999) + [fails])).evaluate(strasbourg) == false)
        // A false operand stops the conjunction before a later one can throw; a throwing one before it throws.
        #expect(try CompiledPredicate(.and([holds, fails, unbound])).evaluate(strasbourg) == false)
        #expect(throws: FormatPredicateError.unboundVariable("unbound")) {
            try CompiledPredicate(.and([holds, unbound, fails])).evaluate(strasbourg)
        }
        #expect(try CompiledPredicate(.and([fails, unbound])).evaluate(strasbourg) == false)
    }

    @Test func aLayoutCompiledPredicateReadsThroughTheReaders() throws {
        // A reader that disagrees with value(forKey:) shows which path ran: the layout path
        // for the layout's type, the by-name path for anything else.
        struct Tagged: FieldLayoutReadable {
            func value(forKey key: String) -> Value { .string("by name") }
            static func fieldReader(forKey key: String) -> FieldReader<Tagged>? {
                key == "resolved" ? FieldReader { _ in .string("by layout") } : nil
            }
        }
        let predicate = try FormatPredicate(format: "resolved == 'by layout' AND other == 'by name'")
        #expect(try CompiledPredicate(predicate, layout: Tagged.self).evaluate(Tagged()) == true)
        #expect(try CompiledPredicate(predicate).evaluate(Tagged()) == false)
        #expect(try CompiledPredicate(predicate, layout: Tagged.self).evaluate(WrappedFields(fields: [:])) == false)
    }
}

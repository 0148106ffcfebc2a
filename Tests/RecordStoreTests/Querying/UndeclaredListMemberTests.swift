import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
import Testing

/// `ANY` over a list without a list table, member by member: each record holds a list of one
/// member, so that the records a predicate finds are exactly the members each engine's plan
/// accepts, and each is compared with the evaluator's answer. The members are the ones an exact
/// plan must tell apart: ASCII (which SQLite decides natively) and what only the evaluator
/// decides (the Kelvin sign U+212A, which NFC turns into the letter K; composed and decomposed
/// accents; case folding that changes length or leaves ASCII; control characters).
struct UndeclaredListMemberTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Place (
                names     LIST<STRING>
            );
        """

    /// One member each; then lists of two, an empty list and a missing one.
    static let members: [String] = [
        "K", "k", "Kyoto", "kyoto", "KYOTO", "\u{212A}obe", "Kobe", "\u{212A}", "K\u{301}", "\u{1E30}",
        "\u{E9}", "e\u{301}", "\u{C9}a", "E\u{301}a", "e", "E", "", " ", "~", "\u{7F}", "\t", "a\nb",
        "Ko\u{308}ln", "K\u{F6}ln", "stra\u{DF}e", "STRASSE", "\u{FB03}", "ffi", "\u{130}stanbul", "istanbul",
        "\u{FF2B}", "a*b", "a?b", "[K]", "K*", "\\K", "\"K\"", "Z", "z", "{", "Kz", "L", "J\u{10FFFF}", "\u{1F600}K",
        "\u{301}K", "<\u{338}", "\u{226E}", "<", "\u{7F}K", "\u{80}", "\u{FFFD}",
    ]

    static var places: [Record] {
        var records = members.enumerated().map { index, member in
            Record(recordType: "Place", recordID: RecordID(recordName: String(format: "m%02d", index)),
                   fields: ["names": .list([.string(member)])])
        }
        records.append(Record(recordType: "Place", recordID: RecordID(recordName: "pair1"), fields: ["names": .list(["\u{212A}", "Zed"])]))
        records.append(Record(recordType: "Place", recordID: RecordID(recordName: "pair2"), fields: ["names": .list(["e\u{301}t\u{E9}", "K"])]))
        records.append(Record(recordType: "Place", recordID: RecordID(recordName: "empty"), fields: ["names": .list([])]))
        records.append(Record(recordType: "Place", recordID: RecordID(recordName: "missing"), fields: [:]))
        return records
    }

    /// The comparisons of a member with a constant, each with every option set.
    static let comparisons: [(operator: String, constants: [String])] = [
        ("BEGINSWITH", ["K", "k", "\u{212A}", "Ky", "e\u{301}", "\u{E9}", "E", "", "stras", "STRASS", "i", "\u{130}", "\u{FF2B}", "J", "<", "<\u{338}", "\u{7F}", "\u{301}"]),
        ("==", ["K", "k", "\u{212A}", "\u{E9}", "e\u{301}", "E", "", "K\u{F6}ln", "strasse", "ffi", "\u{FB03}", "istanbul", "\u{FF4B}", "<", "\u{226E}", "\u{7F}K"]),
        ("!=", ["K", "\u{212A}", "e\u{301}"]),
        ("<", ["K", "k", "\u{212A}", "L", "\u{E9}", "", "~", "\u{80}"]),
        (">=", ["K", "\u{212A}", "e\u{301}", "z"]),
        ("CONTAINS", ["K", "k", "\u{212A}", "o", "e\u{301}", "\u{E9}", "ss", "\u{DF}", "", "*", "\u{301}", "ffi"]),
        ("ENDSWITH", ["e", "E", "\u{301}", "obe", "\u{E9}", "yoto", ""]),
        ("LIKE", ["K*", "k*", "\u{212A}*", "*o*", "?", "K?", "a\\*b", "a?b", "[K]", "*", "", "e\u{301}*", "\u{E9}", "STRASSE", "*\u{DF}*", "\\\\K", "<*", "\u{226E}*", "K*o*"]),
        ("IN", ["{'K', 'e\u{301}'}", "{'\u{212A}obe', 'kyoto'}"]),
    ]

    static let options = ["", "[c]", "[d]", "[cd]"]

    /// Every `ANY names op[options] constant` of ``comparisons``.
    static var predicates: [FormatPredicate] {
        get throws {
            var predicates: [FormatPredicate] = []
            for comparison in comparisons {
                for options in Self.options {
                    for constant in comparison.constants {
                        let format = comparison.operator == "IN"
                            ? "ANY names IN\(options) \(constant)"
                            : "ANY names \(comparison.operator)\(options) %@"
                        predicates.append(comparison.operator == "IN"
                            ? try FormatPredicate(format: format) : try FormatPredicate(format: format, constant))
                    }
                }
            }
            return predicates
        }
    }

    @Test("SQLite calls the evaluator back only for members whose first code point may match a prefix or an equality without options")
    func leadingScalarFilter() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await store.apply(try CloudKitSchemaDocument(parsing: Self.schema))
        for (format, filtered) in [("ANY names BEGINSWITH 'K'", true), ("ANY names == '\u{212A}'", true), ("ANY names LIKE 'K*o'", true),
                                   ("ANY names BEGINSWITH[c] 'k'", false), ("ANY names LIKE '?K'", false), ("ANY names BEGINSWITH '\u{E9}'", false),
                                   ("ANY names CONTAINS 'K'", false)] {
            let plan = try await store.explain(ofType: "Place", matching: FormatPredicate(format: format))
            #expect(plan.sql.contains("json_each") && plan.sql.contains("query_test"), "\(format): \(plan.sql)")
            #expect(plan.sql.contains("l.value >= ? AND (l.value < ? OR l.value >= ?)") == filtered, "\(format): \(plan.sql)")
            #expect(plan.residual == nil, "\(format)")
        }
    }

    @Test("ANY over an undeclared list finds, member by member, exactly what the evaluator finds", arguments: TestEngine.allCases)
    func membersAsTheEvaluator(_ engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.apply(try CloudKitSchemaDocument(parsing: Self.schema))
        let places = Self.places
        _ = try await store.save(places)
        var checked = 0
        for predicate in try Self.predicates {
            let compiled = try CompiledPredicate(predicate)
            let expected = try places.filter { try compiled.evaluate($0.fields) }.map(\.recordID.recordName).sorted()
            let found = try await store.records(ofType: "Place", matching: predicate).map(\.recordID.recordName).sorted()
            #expect(found == expected, "\(engine): \(predicate)")
            checked += 1
        }
        #expect(checked == 4 * Self.comparisons.reduce(0) { $0 + $1.constants.count })
    }
}

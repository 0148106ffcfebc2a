import Foundation
import Testing
@testable import PredicateLanguage

@Suite("Value printing")
struct ValuePrintingTests {
    private func expectPrints(_ cases: [(Value, String)], sourceLocation: SourceLocation = #_sourceLocation) {
        for (value, expected) in cases {
            #expect(value.formatLiteral == expected, sourceLocation: sourceLocation)
            #expect(FormatExpression.constant(value).expressionFormat == expected, sourceLocation: sourceLocation)
        }
    }

    @Test func strings() {
        expectPrints([
            ("plain", #""plain""#),
            ("", #""""#),
            (#"say "hi""#, #""say \"hi\"""#),
            (#"back\slash"#, #""back\\slash""#),
            // Only `"` and `\` are escaped, and line breaks (which no parser reads raw inside quotes).
            ("line\nfeed\rreturn\ttab", "\"line\\nfeed\\rreturn\ttab\""),
            ("bell\u{07}escape\u{1B}delete\u{7F}", "\"bell\u{07}escape\u{1B}delete\u{7F}\""),
            ("héllo wörld 東京 🚀", #""héllo wörld 東京 🚀""#),
            ("it's", #""it's""#),
        ])
    }

    @Test func numbersAndBooleansAndNull() {
        expectPrints([
            (.int(0), "0"),
            (.int(42), "42"),
            (.int(-7), "-7"),
            (.int(Int64.max), "9223372036854775807"),
            (.int(Int64.min), "-9223372036854775808"),
            (.bool(true), "1"),
            (.bool(false), "0"),
            (.null, "nil"),
            (.double(3), "3"),
            (.double(-3), "-3"),
            (.double(0.1), "0.1"),
            (.double(2.5), "2.5"),
            (.double(-122.03021), "-122.03021"),
            (.double(2.5e-7), "2.5e-07"),
            (.double(1e100), "1e+100"),
            (.double(999_999_999_999_999), "999999999999999"),
            (.double(1e15), "1000000000000000.0"),
            (.double(1e16), "1e+16"),
            (.double(-0.0), "0"),
            (.double(.nan), #"CAST("nan", "NSNumber")"#),
            (.double(.infinity), #"CAST("inf", "NSNumber")"#),
            (.double(-.infinity), #"CAST("-inf", "NSNumber")"#),
        ])
    }

    @Test func listsAndCasts() {
        expectPrints([
            ([1, 2], "{1, 2}"),
            (["a", "b"], #"{"a", "b"}"#),
            (.list([]), "{}"),
            ([[1], "x", nil], #"{{1}, "x", nil}"#),
            (.date(Date(timeIntervalSinceReferenceDate: 736_214_400)), #"CAST(736214400.000000, "NSDate")"#),
            (.date(Date(timeIntervalSinceReferenceDate: 0.25)), #"CAST(0.250000, "NSDate")"#),
            (.date(Date(timeIntervalSinceReferenceDate: -1.5)), #"CAST(-1.500000, "NSDate")"#),
            (.bytes(Data([0, 1, 2, 255])), #"CAST("AAEC/w==", "NSData")"#),
            (.location(Location(latitude: 48.8566, longitude: 2.3522)), #"CAST({48.8566, 2.3522}, "CLLocation")"#),
            (.location(Location(latitude: 10, longitude: -20, altitude: 35.5)), #"CAST({10, -20, 35.5}, "CLLocation")"#),
            (.reference(Reference(recordName: "r1")), #"CAST("r1", "CKReference")"#),
            (.reference(Reference(recordName: "r1", zoneName: "Work")), #"CAST({"r1", "Work"}, "CKReference")"#),
            (["b": 2, "a": "x\"y", "c": [true, nil]],
             #"CAST("{\"a\":\"x\\\"y\",\"b\":2,\"c\":[true,null]}", "NSDictionary")"#),
            (.object([:]), #"CAST("{}", "NSDictionary")"#),
        ])
    }
}

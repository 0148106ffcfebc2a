import Foundation
import Testing
@testable import PredicateLanguage

/// The right-hand side of `x == <literal>`.
private func literal(_ text: String) throws -> FormatExpression {
    guard case .comparison(let comparison) = try FormatPredicate(format: "x == \(text)") else {
        Issue.record("not a comparison: \(text)")
        return .constant(.null)
    }
    return comparison.right
}

/// Whether two values are the same kind and payload (stricter than Value's numeric equality).
private func identical(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.int(let x), .int(let y)): x == y
    case (.double(let x), .double(let y)): x == y || (x.isNaN && y.isNaN)
    case (.bool(let x), .bool(let y)): x == y
    default: a == b
    }
}

private func constant(_ text: String) throws -> Value? {
    if case .constant(let value) = try literal(text) { return value }
    return nil
}

@Suite("Parser: literals")
struct ParserLiteralTests {
    @Test func strings() throws {
        #expect(try literal("'red'") == .constant("red"))
        #expect(try literal("\"red\"") == .constant("red"))
        #expect(try literal("''") == .constant(""))
        #expect(try literal("'it\"s'") == .constant("it\"s"))
        #expect(try literal("\"it's\"") == .constant("it's"))
        #expect(try literal("'héllo wörld 日本'") == .constant("héllo wörld 日本"))
    }

    @Test func escapes() throws {
        #expect(try literal(#"'a\\b'"#) == .constant(#"a\b"#))
        #expect(try literal(#"'a\"b'"#) == .constant("a\"b"))
        #expect(try literal(#"'a\'b'"#) == .constant("a'b"))
        #expect(try literal(#""a\nb\rc\td""#) == .constant("a\nb\rc\td"))
        #expect(try literal(#"'a\0b'"#) == .constant("a\u{0}b"))
        #expect(try literal(#"'\u00e9'"#) == .constant("é"))
        #expect(try literal(#"'\uD83D\uDE00!'"#) == .constant("😀!"))
        #expect(try literal(#"'\u{1F600}'"#) == .constant("😀"))
        #expect(try literal(#"'\u{41}\u{e9}'"#) == .constant("Aé"))
    }

    @Test func noSubstitutionInsideQuotes() throws {
        #expect(try literal("'%@ and $x and %%'") == .constant("%@ and $x and %%"))
        #expect(try FormatPredicate(format: "x == '%d' AND y == %d", 5)
            == .and([
                .comparison(ComparisonPredicate(.keyPath("x"), .equalTo, .constant("%d"))),
                .comparison(ComparisonPredicate(.keyPath("y"), .equalTo, .constant(5))),
            ]))
    }

    @Test(arguments: [
        ("0", Value.int(0)), ("42", .int(42)), ("-5", .int(-5)),
        ("9223372036854775807", .int(Int64.max)),
        ("-9223372036854775808", .int(Int64.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808.0)),
        ("123456789012345678901234567890", .double(123456789012345678901234567890.0)),
        ("1.5", .double(1.5)), ("-2.25", .double(-2.25)), (".5", .double(0.5)),
        ("1e+100", .double(1e100)), ("2.5E-3", .double(2.5e-3)), ("3e2", .double(300)),
        ("0x1F", .int(31)), ("0XfF", .int(255)), ("0o17", .int(15)), ("0O17", .int(15)),
        ("0b101", .int(5)), ("0B11", .int(3)), ("-0x10", .int(-16)),
        ("0xFFFFFFFFFFFFFFFF", .double(18_446_744_073_709_551_615.0)),
    ])
    func numbers(text: String, expected: Value) throws {
        let value = try constant(text)
        #expect(value.map { identical($0, expected) } == true, "\(text) parsed as \(String(describing: value))")
    }

    @Test func keywordsConstants() throws {
        #expect(try literal("TRUE") == .constant(.bool(true)))
        #expect(try literal("yes") == .constant(.bool(true)))
        #expect(try literal("False") == .constant(.bool(false)))
        #expect(try literal("NO") == .constant(.bool(false)))
        #expect(try literal("NULL") == .constant(.null))
        #expect(try literal("nil") == .constant(.null))
        #expect(try literal("SELF") == .evaluatedObject)
        #expect(try constant("TRUE").map { identical($0, .bool(true)) } == true)
    }

    @Test func negation() throws {
        #expect(try literal("-a") == .negation(.keyPath("a")))
        #expect(try literal("- 5") == .constant(-5))
        #expect(try literal("-(5)") == .negation(.constant(5)))
        #expect(try literal("-a ** 2") == .negation(.arithmetic(.power, .keyPath("a"), .constant(2))))
        #expect(try literal("-2 ** 2") == .negation(.arithmetic(.power, .constant(2), .constant(2))))
        #expect(try literal("2 ** -1") == .arithmetic(.power, .constant(2), .constant(-1)))
        #expect(try literal("a - -1") == .arithmetic(.subtract, .keyPath("a"), .constant(-1)))
        #expect(try literal("--a") == .negation(.negation(.keyPath("a"))))
    }

    @Test func aggregates() throws {
        #expect(try literal("{}") == .constant(.list([])))
        #expect(try literal("{1, 'a', nil, TRUE}") == .constant(.list([1, "a", .null, true])))
        #expect(try literal("{1, {2, 3}}") == .constant(.list([1, [2, 3]])))
        #expect(try literal("{1, a}") == .aggregate([.constant(1), .keyPath("a")]))
        #expect(try literal("{-1, -2.5}") == .constant(.list([-1, -2.5])))
        #expect(try literal("(1, 3)") == .constant(.list([1, 3])))
    }

    @Test func castFolding() throws {
        #expect(try literal("CAST(0, 'NSDate')") == .constant(.date(Date(timeIntervalSinceReferenceDate: 0))))
        #expect(
            try literal("CAST(736214400.5, \"NSDate\")")
                == .constant(.date(Date(timeIntervalSinceReferenceDate: 736_214_400.5))))
        #expect(try literal("CAST('42', 'NSNumber')") == .constant(42))
        #expect(try literal("CAST('2.5', 'NSNumber')") == .constant(2.5))
        #expect(try literal("CAST('inf', 'NSNumber')") == .constant(.double(.infinity)))
        #expect(try literal("CAST('-inf', 'NSNumber')") == .constant(.double(-.infinity)))
        let nan = try constant("CAST('nan', 'NSNumber')")
        #expect(nan?.numericValue?.isNaN == true)
        #expect(try literal("CAST('abc', 'NSString')") == .constant("abc"))
        #expect(try literal("CAST(42, 'NSString')") == .constant("42"))
        #expect(try literal("CAST(2.5, 'NSString')") == .constant("2.5"))
        #expect(try literal("CAST('AQID', 'NSData')") == .constant(.bytes(Data([1, 2, 3]))))
        #expect(
            try literal("CAST({48.85, 2.35}, 'CLLocation')")
                == .constant(.location(Location(latitude: 48.85, longitude: 2.35))))
        #expect(
            try literal("CAST({48.85, 2.35, 35}, 'CLLocation')")
                == .constant(.location(Location(latitude: 48.85, longitude: 2.35, altitude: 35))))
        #expect(try literal("CAST('rec-1', 'CKReference')") == .constant(.reference(Reference(recordName: "rec-1"))))
        #expect(
            try literal("CAST({'rec-1', 'zone'}, 'CKReference')")
                == .constant(.reference(Reference(recordName: "rec-1", zoneName: "zone"))))
        #expect(try literal("CAST(a, 'NSDate')") == .cast(.keyPath("a"), "NSDate"))
        #expect(try literal("CAST('abc', 'NSNumber')") == .cast(.constant("abc"), "NSNumber"))
        #expect(
            try FormatPredicate(format: "d > CAST(%@, 'NSDate')", 10.0)
                == .comparison(ComparisonPredicate(
                    .keyPath("d"), .greaterThan, .constant(.date(Date(timeIntervalSinceReferenceDate: 10))))))
    }
}

import Foundation
import Testing
@testable import PredicateLanguage

/// The right-hand side of `x == <format>` with the arguments.
private func bound(_ format: String, _ arguments: (any FormatArgument)?...) throws -> FormatExpression {
    guard case .comparison(let comparison) = try FormatPredicate(
        format: "x == \(format)", argumentArray: arguments.map { $0?.formatArgumentValue ?? .null })
    else { return .constant("not a comparison") }
    return comparison.right
}

/// The argument error of parsing a format, as (position, message).
private func argumentError(_ format: String, _ arguments: (any FormatArgument)?...) -> (Int, String)? {
    do {
        _ = try FormatPredicate(format: format, argumentArray: arguments.map { $0?.formatArgumentValue ?? .null })
        return nil
    } catch let error as PredicateLanguage.FormatPredicateError {
        if case .argument(let position, let message) = error { return (position, message) }
        return nil
    } catch {
        return nil
    }
}

private func isInt(_ expression: FormatExpression, _ expected: Int64) -> Bool {
    if case .constant(.int(let value)) = expression { return value == expected }
    return false
}

private func isDouble(_ expression: FormatExpression, _ expected: Double) -> Bool {
    if case .constant(.double(let value)) = expression { return value == expected }
    return false
}

@Suite("Binding: format arguments")
struct FormatArgumentTests {
    @Test func conformances() {
        #expect("a".formatArgumentValue == .string("a"))
        #expect("abc".dropFirst().formatArgumentValue == .string("bc"))
        #expect(true.formatArgumentValue == .bool(true))
        #expect(Int(-3).formatArgumentValue == .int(-3))
        #expect(Int8(-8).formatArgumentValue == .int(-8))
        #expect(Int16(16).formatArgumentValue == .int(16))
        #expect(Int32(32).formatArgumentValue == .int(32))
        #expect(Int64.min.formatArgumentValue == .int(.min))
        #expect(UInt(7).formatArgumentValue == .int(7))
        #expect(UInt8(8).formatArgumentValue == .int(8))
        #expect(UInt16(16).formatArgumentValue == .int(16))
        #expect(UInt32.max.formatArgumentValue == .int(Int64(UInt32.max)))
        #expect(UInt64(Int64.max).formatArgumentValue == .int(.max))
        if case .double(let value) = UInt64.max.formatArgumentValue {
            #expect(value == 18_446_744_073_709_551_615.0)
        } else {
            Issue.record("UInt64.max is not a double")
        }
        #expect(2.5.formatArgumentValue == .double(2.5))
        #expect(Float(1.5).formatArgumentValue == .double(1.5))
        let date = Date(timeIntervalSinceReferenceDate: 1_000)
        #expect(date.formatArgumentValue == .date(date))
        #expect(Data([1, 2]).formatArgumentValue == .bytes(Data([1, 2])))
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(uuid.formatArgumentValue == .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect([1, 2].formatArgumentValue == .list([1, 2]))
        #expect(Set(["a"]).formatArgumentValue == .list(["a"]))
        #expect(["k": 1].formatArgumentValue == .object(["k": 1]))
        #expect((nil as String?).formatArgumentValue == .null)
        #expect(Optional("a").formatArgumentValue == .string("a"))
        #expect(Value.list([1]).formatArgumentValue == .list([1]))
        let location = Location(latitude: 1, longitude: 2)
        #expect(location.formatArgumentValue == .location(location))
        let reference = Reference(recordName: "r", zoneName: "z")
        #expect(reference.formatArgumentValue == .reference(reference))
    }

    @Test func objectSpecifier() throws {
        #expect(try bound("%@", "a") == .constant("a"))
        // A null argument is a null value (Apple's NSNull, printed <null>), not the literal nil.
        #expect(try bound("%@", nil) == .nullValue)
        #expect(try bound("%@", ["a", "b"]) == .constant(["a", "b"]))
        if case .constant(.list(let members)) = try bound("%@", [1, 2] as Set<Int>) {
            #expect(Set(members) == [1, 2])
        } else {
            Issue.record("a set is not a list")
        }
        #expect(try FormatPredicate(format: "a == %@ AND b == %@", nil, 3)
            == .and([
                .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .nullValue)),
                .comparison(ComparisonPredicate(.keyPath("b"), .equalTo, .constant(3))),
            ]))
    }

    @Test func keyPathSpecifier() throws {
        #expect(try FormatPredicate(format: "%K == 1", "a.b")
            == .comparison(ComparisonPredicate(.keyPath("a.b"), .equalTo, .constant(1))))
        #expect(try FormatPredicate(format: "%K.@count > 1", "tags")
            == .comparison(ComparisonPredicate(.keyPath("tags.@count"), .greaterThan, .constant(1))))
        #expect(argumentError("%K == 1", "")! == (1, "%K expects a non-empty string naming a key path, but an empty string was given"))
        #expect(argumentError("%K == 1", 5)! == (1, "%K expects a non-empty string naming a key path, but an integer was given"))
        #expect(argumentError("a == 1 AND %K == 1", nil)! == (1, "%K expects a non-empty string naming a key path, but nil was given"))
    }

    @Test(arguments: ["%d", "%i", "%ld", "%lld", "%u", "%hd", "%hu", "%lu", "%llu", "%li", "%qd"])
    func integerSpecifiers(specifier: String) throws {
        #expect(isInt(try bound(specifier, 42), 42))
        #expect(isInt(try bound(specifier, Int8(-8)), -8))
        #expect(isInt(try bound(specifier, UInt16(16)), 16))
        #expect(isInt(try bound(specifier, Int64.max), .max))
        #expect(isInt(try bound(specifier, true), 1))
        #expect(argumentError("x == \(specifier)", 2.5)! == (1, "\(specifier) expects an integer, but a double was given"))
        #expect(argumentError("x == \(specifier)", "2")! == (1, "\(specifier) expects an integer, but a string was given"))
    }

    @Test(arguments: ["%f", "%lf", "%g", "%e", "%F", "%G", "%E"])
    func floatingPointSpecifiers(specifier: String) throws {
        #expect(isDouble(try bound(specifier, 2.5), 2.5))
        #expect(isDouble(try bound(specifier, 3), 3.0))
        #expect(isDouble(try bound(specifier, Float(0.5)), 0.5))
        #expect(argumentError("x == \(specifier)", "1")! == (1, "\(specifier) expects a number, but a string was given"))
        #expect(argumentError("x == \(specifier)", nil)! == (1, "\(specifier) expects a number, but nil was given"))
    }

    @Test func argumentCounts() throws {
        #expect(argumentError("a == %@")! == (1, "expected a value for the specifier %@, but only 0 arguments were given"))
        #expect(
            argumentError("a == %@ AND b == %d", "x")!
                == (2, "expected a value for the specifier %d, but only 1 argument was given"))
        // Arguments beyond the specifiers are ignored, as predicateWithFormat: ignores them.
        #expect(argumentError("a == 1", "x") == nil)
        #expect(argumentError("a == %@", "x", "y") == nil)
        #expect(try FormatPredicate(format: "a == %@", "x", "y").predicateFormat == #"a == "x""#)
        #expect(
            PredicateLanguage.FormatPredicateError.argument(position: 2, message: "m").description == "format argument 2: m")
    }

    @Test func argumentArrayAndExpressions() throws {
        #expect(
            try FormatPredicate(format: "a IN %@", argumentArray: [[1, 2]])
                == .comparison(ComparisonPredicate(.keyPath("a"), .in, .constant([1, 2]))))
        #expect(try FormatExpression(format: "price * %d", 2) == .arithmetic(.multiply, .keyPath("price"), .constant(2)))
        #expect(try FormatExpression(format: "%K.@count", argumentArray: ["tags"]) == .keyPath("tags.@count"))
        #expect(throws: PredicateLanguage.FormatPredicateError.argument(position: 1, message: "expected a value for the specifier %K, but only 0 arguments were given")) {
            try FormatExpression(format: "%K")
        }
    }
}

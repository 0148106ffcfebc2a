import Foundation
import Testing
@testable import PredicateLanguage

@Suite("Evaluation: equality and ordering")
struct ComparisonEvaluationTests {
    @Test func numbersEqualAcrossKinds() throws {
        #expect(try holds(.int(1), .equalTo, .double(1.0), [], .direct) == true)
        #expect(try holds(.double(1.0), .equalTo, .int(1), [], .direct) == true)
        #expect(try holds(.bool(true), .equalTo, .int(1), [], .direct) == true)
        #expect(try holds(.int(1), .equalTo, .bool(true), [], .direct) == true)
        #expect(try holds(.int(0), .equalTo, .bool(false), [], .direct) == true)
        #expect(try holds(.int(2), .equalTo, .double(2.5), [], .direct) == false)
        #expect(try holds(.int(Int64.max), .equalTo, .double(9_223_372_036_854_775_807.0), [], .direct) == false)
        #expect(try holds(.int(3), .notEqualTo, .double(3), [], .direct) == false)
        #expect(try holds(.double(.nan), .equalTo, .double(.nan), [], .direct) == false)
    }

    @Test func stringsNeverEqualNumbers() throws {
        #expect(try holds(.string("42"), .equalTo, .int(42), [], .direct) == false)
        #expect(try holds(.int(42), .equalTo, .string("42"), [], .direct) == false)
        #expect(try holds(.string("42"), .notEqualTo, .int(42), [], .direct) == true)
        #expect(try holds(.string("1"), .equalTo, .bool(true), [], .direct) == false)
    }

    @Test func nilEqualsOnlyNil() throws {
        #expect(try holds(.null, .equalTo, .null, [], .direct) == true)
        #expect(try holds(.null, .notEqualTo, .null, [], .direct) == false)
        #expect(try holds(.null, .equalTo, .int(0), [], .direct) == false)
        #expect(try holds(.int(0), .equalTo, .null, [], .direct) == false)
        #expect(try holds(.string(""), .equalTo, .null, [], .direct) == false)
        #expect(try holds(.null, .notEqualTo, .string("x"), [], .direct) == true)
        // A missing key is nil.
        let missing = EvaluationTestSupport.comparison(.keyPath("absent"), .equalTo, .constant(.null))
        #expect(try missing.evaluate(with: ["present": 1] as [String: Value]) == true)
    }

    @Test func stringEqualityIsExactWithoutOptions() throws {
        #expect(try holds("Paris", .equalTo, "Paris", [], .direct) == true)
        #expect(try holds("Paris", .equalTo, "paris", [], .direct) == false)
        #expect(try holds("café", .equalTo, "cafe", [], .direct) == false)
    }

    @Test func caseAndDiacriticFolding() throws {
        #expect(try holds("Paris", .equalTo, "PARIS", [.caseInsensitive], .direct) == true)
        #expect(try holds("café", .equalTo, "CAFE", [.caseInsensitive], .direct) == false)
        #expect(try holds("café", .equalTo, "cafe", [.diacriticInsensitive], .direct) == true)
        #expect(try holds("Café", .equalTo, "cafe", [.diacriticInsensitive], .direct) == false)
        #expect(try holds("Ärger", .equalTo, "arger", [.caseInsensitive, .diacriticInsensitive], .direct) == true)
        #expect(try holds("Ärger", .equalTo, "arger", [.caseInsensitive], .direct) == false)
        #expect(try holds("Ärger", .equalTo, "ärger", [.caseInsensitive], .direct) == true)
        #expect(try holds("arger", .equalTo, "Ärger", [.caseInsensitive, .diacriticInsensitive], .direct) == true)
        // Foundation folds ß to ss under [c], and leaves it under [d].
        #expect(try holds("straße", .equalTo, "STRASSE", [.caseInsensitive], .direct) == true)
        #expect(try holds("STRASSE", .equalTo, "straße", [.caseInsensitive], .direct) == true)
        #expect(try holds("straße", .equalTo, "strasse", [.diacriticInsensitive], .direct) == false)
        #expect(try holds("straße", .equalTo, "straße", [], .direct) == true)
        // The ASCII fast path falls back when the value is not ASCII: the ligature ﬁ folds to "fi".
        #expect(try holds("ﬁx", .equalTo, "FIX", [.caseInsensitive], .direct) == true)
        #expect(try holds("Paris!", .equalTo, "paris", [.caseInsensitive], .direct) == false)
        #expect(try holds("Pari", .equalTo, "paris", [.caseInsensitive], .direct) == false)
        // Lists compare member by member, with the options.
        #expect(try holds(["A", "b"], .equalTo, ["a", "B"], [.caseInsensitive], .direct) == true)
        #expect(try holds(["A", "b"], .equalTo, ["a", "B"], [], .direct) == false)
    }

    @Test func otherKindsEqualByValue() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        #expect(try holds(.date(date), .equalTo, .date(date), [], .direct) == true)
        #expect(try holds(.date(date), .equalTo, .date(date.addingTimeInterval(1)), [], .direct) == false)
        #expect(try holds(.bytes(Data([1, 2])), .equalTo, .bytes(Data([1, 2])), [], .direct) == true)
        let paris = Location(latitude: 48.8566, longitude: 2.3522)
        #expect(try holds(.location(paris), .equalTo, .location(paris), [], .direct) == true)
        #expect(try holds(.reference(Reference(recordName: "a")), .equalTo, .reference(Reference(recordName: "a")), [], .direct) == true)
        #expect(try holds(.reference(Reference(recordName: "a")), .equalTo, .reference(Reference(recordName: "a", zoneName: "z")), [], .direct) == false)
        #expect(try holds([1, 2], .equalTo, [1.0, 2.0], [], .direct) == true)
        #expect(try holds([1, 2], .equalTo, [2, 1], [], .direct) == false)
    }

    @Test func numericOrdering() throws {
        #expect(try holds(.int(2), .lessThan, .double(2.5), [], .direct) == true)
        #expect(try holds(.double(2.5), .greaterThan, .int(2), [], .direct) == true)
        #expect(try holds(.int(3), .lessThanOrEqualTo, .int(3), [], .direct) == true)
        #expect(try holds(.int(3), .greaterThanOrEqualTo, .double(3.0), [], .direct) == true)
        #expect(try holds(.bool(true), .greaterThan, .int(0), [], .direct) == true)
        #expect(try holds(.int(-5), .greaterThan, .int(-4), [], .direct) == false)
        #expect(try holds(.double(.nan), .lessThan, .int(1), [], .direct) == false)
        #expect(try holds(.double(.nan), .greaterThanOrEqualTo, .double(1), [], .direct) == false)
    }

    @Test func orderingWithNilOrAcrossKindsIsFalse() throws {
        for op in [ComparisonOperator.lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo] {
            #expect(try holds(.null, op, .int(1), [], .direct) == false)
            #expect(try holds(.int(1), op, .null, [], .direct) == false)
            #expect(try holds(.null, op, .null, [], .direct) == false)
            #expect(try holds("5", op, .int(5), [], .direct) == false)
            #expect(try holds(.int(5), op, "5", [], .direct) == false)
            #expect(try holds(.date(Date(timeIntervalSince1970: 0)), op, .int(0), [], .direct) == false)
        }
    }

    @Test func stringsOrderByCodePoints() throws {
        #expect(try holds("Zebra", .lessThan, "apple", [], .direct) == true)
        #expect(try holds("Zebra", .lessThan, "apple", [.caseInsensitive], .direct) == false)
        #expect(try holds("Zebra", .greaterThan, "apple", [.caseInsensitive], .direct) == true)
        #expect(try holds("é", .greaterThan, "z", [], .direct) == true)
        #expect(try holds("é", .lessThan, "z", [.diacriticInsensitive], .direct) == true)
        #expect(try holds("abc", .lessThan, "abcd", [], .direct) == true)
        #expect(try holds("abc", .lessThanOrEqualTo, "abc", [], .direct) == true)
        // U+FF21 (fullwidth A) sorts after U+00E9.
        #expect(try holds("\u{FF21}", .greaterThan, "é", [], .direct) == true)
        #expect(ValueOrdering.compare("b", "a") == .orderedDescending)
        #expect(ValueOrdering.compare("B", "a", options: .caseInsensitive) == .orderedDescending)
        #expect(ValueOrdering.compare(.null, .null) == nil)
        #expect(ValueOrdering.compare(["a"], ["a"]) == nil)
    }

    @Test func datesOrderByTime() throws {
        let early = Date(timeIntervalSince1970: 100)
        let late = Date(timeIntervalSince1970: 200)
        #expect(try holds(.date(early), .lessThan, .date(late), [], .direct) == true)
        #expect(try holds(.date(late), .greaterThanOrEqualTo, .date(late), [], .direct) == true)
        #expect(ValueOrdering.compare(.date(late), .date(early)) == .orderedDescending)
    }

    @Test func between() throws {
        #expect(try holds(.int(5), .between, [1, 10], [], .direct) == true)
        #expect(try holds(.int(1), .between, [1, 10], [], .direct) == true)
        #expect(try holds(.int(10), .between, [1, 10.0], [], .direct) == true)
        #expect(try holds(.int(11), .between, [1, 10], [], .direct) == false)
        #expect(try holds(.double(0.5), .between, [1, 10], [], .direct) == false)
        #expect(try holds("m", .between, ["a", "z"], [], .direct) == true)
        #expect(try holds("M", .between, ["a", "z"], [], .direct) == false)
        #expect(try holds("M", .between, ["a", "z"], [.caseInsensitive], .direct) == true)
        #expect(try holds(.null, .between, [1, 10], [], .direct) == false)
        #expect(try holds(.int(5), .between, [1], [], .direct) == false)
        #expect(try holds(.int(5), .between, .int(5), [], .direct) == false)
        #expect(try holds("5", .between, [1, 10], [], .direct) == false)
    }
}

import Foundation
import Testing
@testable import PredicateLanguage

/// What a key reaches on a value, as Apple's key-value coding reaches it.
///
/// Sources: daydreamboy/HelloProjects, HelloNSPredicate/Tests/Tests_NSPredicate.m (test_syntax_KVC:
/// `a.firstName.length == 3` is true on Apple); Apple's NSString, NSNumber, NSDate, NSArray and
/// NSDictionary references (`length` counts UTF-16 code units; NSArray `valueForKey:` maps the key
/// over the members; NSDictionary `valueForKey:` is `objectForKey:` for a key without `@`, and strips
/// the `@` to ask the dictionary itself otherwise); bou.io/KVCCustomOperators.html
/// (`[@"hello" valueForKey:@"uppercaseString"]`, `@lastObject` on arrays).
@Suite("Key-value coding")
struct KeyValueCodingTests {
    private func value(_ format: String, _ object: [String: Value], variables: [String: Value] = [:]) throws -> Value {
        try EvaluationTestSupport.value(try FormatExpression(format: format), on: object, variables: variables)
    }

    @Test func stringLengthCountsUTF16CodeUnits() throws {
        let person: [String: Value] = ["a": ["firstName": "Lee"], "name": "naïve 😀", "flag": true]
        #expect(try value("a.firstName.length", person) == .int(3))
        #expect(try value("name.length", person) == .int(8))   // the emoji is two UTF-16 code units
        #expect(try value("TERNARY(flag == YES, name, 'x').length", person) == .int(8))
        #expect(try FormatPredicate(format: "a.firstName.length == 3").evaluate(withValue: .object(person)))
        #expect(try FormatPredicate(format: "SELF.length == 5").evaluate(withValue: "Paris"))
    }

    @Test func stringProperties() throws {
        let object: [String: Value] = ["s": "  42.5e1 apples", "w": "hello wORLD", "y": "Yes", "z": "007", "n": "-0", "big": "99999999999"]
        #expect(try value("w.uppercaseString", object) == "HELLO WORLD")
        #expect(try value("w.lowercaseString", object) == "hello world")
        #expect(try value("w.capitalizedString", object) == "Hello World")
        #expect(try value("s.intValue", object) == .int(42))
        #expect(try value("s.integerValue", object) == .int(42))
        #expect(try value("s.longLongValue", object) == .int(42))
        #expect(try value("s.doubleValue", object) == .double(425))
        #expect(try value("s.floatValue", object) == .double(425))
        #expect(try value("big.intValue", object) == .int(Int64(Int32.max)))
        #expect(try value("big.integerValue", object) == .int(99_999_999_999))
        #expect(try value("w.intValue", object) == .int(0))
        #expect(try value("y.boolValue", object) == .bool(true))
        #expect(try value("z.boolValue", object) == .bool(true))
        #expect(try value("n.boolValue", object) == .bool(false))
        #expect(try value("w.boolValue", object) == .bool(false))
        #expect(try value("w.description", object) == "hello wORLD")
        #expect(try value("w.count", object) == .null)   // a key a string does not have
    }

    @Test func numberProperties() throws {
        let object: [String: Value] = ["i": 7, "d": 2.75, "b": true, "huge": .int(Int64(Int32.max) + 3)]
        #expect(try value("d.intValue", object) == .int(2))
        #expect(try value("d.integerValue", object) == .int(2))
        #expect(try value("i.doubleValue", object) == .double(7))
        #expect(try value("d.floatValue", object) == .double(2.75))
        #expect(try value("i.boolValue", object) == .bool(true))
        #expect(try value("i.stringValue", object) == "7")
        #expect(try value("d.stringValue", object) == "2.75")
        #expect(try value("b.stringValue", object) == "1")
        #expect(try value("b.intValue", object) == .int(1))
        #expect(try value("huge.intValue", object) == .int(Int64(Int32.min) + 2))   // truncated to 32 bits
        #expect(try value("i.description", object) == "7")
        #expect(try value("i.length", object) == .null)
    }

    @Test func dateProperties() throws {
        let object: [String: Value] = ["when": .date(Date(timeIntervalSinceReferenceDate: 100))]
        #expect(try value("when.timeIntervalSinceReferenceDate", object) == .double(100))
        #expect(try value("when.timeIntervalSince1970", object) == .double(978_307_300))
    }

    @Test func listsMapPlainKeysAndAnswerAtKeysThemselves() throws {
        let object: [String: Value] = ["tags": ["ab", "c"], "items": [["price": 2], ["price": 3.5]]]
        #expect(try value("tags.length", object) == [2, 1])
        #expect(try value("items.price", object) == [2, 3.5])
        #expect(try value("tags.@count", object) == .int(2))
        #expect(try value("tags.@firstObject", object) == "ab")
        #expect(try value("tags.@lastObject", object) == "c")
        #expect(try value("items.@sum.price", object) == .double(5.5))
        #expect(try value("items.@lastObject.price", object) == .double(3.5))
        #expect(try FormatPredicate(format: "SELF.@lastObject > 5").evaluate(withValue: [5, 7, 8]))
    }

    @Test func dictionariesAnswerMembersAndAtKeys() throws {
        let object: [String: Value] = ["d": ["b": 1, "a": 2], "withCount": ["count": 9]]
        #expect(try value("d.a", object) == .int(2))
        #expect(try value("d.count", object) == .null)   // a plain key is a member
        #expect(try value("withCount.count", object) == .int(9))
        #expect(try value("d.@count", object) == .int(2))
        #expect(try value("d.@allKeys", object) == ["a", "b"])
        #expect(try value("d.@allValues", object) == [2, 1])
        #expect(try value("d[SIZE]", object) == .int(2))
    }

    @Test func bytesHaveALength() throws {
        #expect(try value("data.length", ["data": .bytes(Data([1, 2, 3]))]) == .int(3))
    }
}

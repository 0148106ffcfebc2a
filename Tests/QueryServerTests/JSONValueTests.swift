import Foundation
import PredicateLanguage
import QueryServer
import Testing

/// The package's JSON reader and writer on the wire's plain JSON (`JSONValue`), as the server reads requests and writes answers.
@Suite struct JSONValueTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }
    static func write(_ value: JSONValue) -> String { String(decoding: value.jsonBytes(), as: UTF8.self) }

    @Test func readsEveryKindOfValue() throws {
        let value = try Self.parse(#" {"a": [1, -2.5, 3e2, true, false, null, "x\"y\\z\u00e9\ud83c\udfd4\n"], "big": 9223372036854775807, "bigger": 9223372036854775808} "#)
        #expect(value["a"] == [1, -2.5, 300.0, true, false, nil, "x\"y\\zé🏔\n"])
        #expect(value["big"] == .integer(.max))
        #expect(value["bigger"] == .number(9_223_372_036_854_775_808))
        #expect(try Self.parse("[]") == [] && Self.parse("{}") == [:])
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "\"\\x\"", "\"\\ud83c\"", "tru", "{} x", "\"\u{01}\"", "[1 2]"])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(throws: JSONParsingError.self) { try Self.parse(text) }
    }

    @Test func refusesNestingDeeperThanTheLimitWithoutCrashing() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParsingError.self) { try Self.parse(deep) }
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: Never.self) { try Self.parse(fine) }
    }

    @Test func writesCompactJSONThatReadsBack() throws {
        let value: JSONValue = ["b": [1, 2.5, "q\"\\\n\u{01}é"], "a": nil, "c": ["z": true, "y": .number(.infinity)]]
        let text = Self.write(value)
        #expect(Self.write(["b": [1, 2.5, "q\"\\\n\u{01}é"]]) == #"{"b":[1,2.5,"q\"\\\n\u0001é"]}"#)
        #expect(try Self.parse(text) == ["b": [1, 2.5, "q\"\\\n\u{01}é"], "a": nil, "c": ["z": true, "y": "Infinity"]])
        let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(foundation?.keys.sorted() == ["a", "b", "c"])
        #expect(try Self.parse(#"{"a":null,"b":[1,2.5,"x"]}"#) == ["a": nil, "b": [1, 2.5, "x"]])
    }
}

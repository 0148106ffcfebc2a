import Testing
@testable import PredicateLanguage

/// The one JSON reader, into its two trees: what they share and where they differ.
@Suite struct JSONReaderTests {
    @Test func bothTreesReadTheSameGrammarWithTheSameErrors() {
        for text in ["[1, 2", "{\"a\" 1}", "01", "\"abc", "tru", "1 2", "\"\\x\""] {
            var valueError: JSONParsingError?
            var jsonError: JSONParsingError?
            do { _ = try Value(jsonText: text) } catch { valueError = error as? JSONParsingError }
            do { _ = try JSONValue(parsing: Array(text.utf8)) } catch { jsonError = error }
            #expect(valueError != nil && valueError == jsonError, "\(text)")
        }
    }

    @Test func integersStayApartInJSONValueAndBecomeIntegersInValue() throws {
        #expect(try JSONValue(parsing: Array("1e3".utf8)) == .number(1000))
        #expect(try JSONValue(parsing: Array("3.0".utf8)) == .number(3))
        #expect(try JSONValue(parsing: Array("-9223372036854775808".utf8)) == .integer(.min))
        #expect(try JSONValue(parsing: Array("9223372036854775808".utf8)) == .number(9_223_372_036_854_775_808))
        #expect(try Value(jsonText: "1e3").isIdenticalKind(to: .int(1000)))
        #expect(try Value(jsonText: "-9223372036854775808") == .int(.min))
    }

    @Test func typedObjectsAreValuesOnlyInValue() throws {
        let text = #"{"$ref": "r1"}"#
        #expect(try JSONValue(parsing: Array(text.utf8)) == .object(["$ref": .string("r1")]))
        #expect(try Value(jsonText: text) == .reference(Reference(recordName: "r1")))
    }

    @Test func invalidUTF8IsRefusedOnTheWireAndRepairedInFiles() throws {
        let bytes: [UInt8] = [UInt8(ascii: "\""), 0x61, 0xFF, UInt8(ascii: "\"")]
        #expect(throws: JSONParsingError(message: "a string is not valid UTF-8", offset: 1)) { try JSONValue(parsing: bytes) }
        #expect(try Value(jsonBytes: bytes) == .string("a\u{FFFD}"))
    }

    @Test func eachTreeHasItsDepthLimit() throws {
        func nested(_ depth: Int) -> [UInt8] { Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8) }
        #expect(throws: Never.self) { try JSONValue(parsing: nested(256)) }
        #expect(throws: JSONParsingError(message: "JSON nested deeper than 256 levels", offset: 256)) { try JSONValue(parsing: nested(257)) }
        #expect(throws: Never.self) { try Value(jsonBytes: nested(512)) }
        #expect(throws: JSONParsingError(message: "JSON nested deeper than 512 levels", offset: 512)) { try Value(jsonBytes: nested(513)) }
    }
}

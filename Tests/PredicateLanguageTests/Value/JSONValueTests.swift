import Foundation
import Testing
@testable import PredicateLanguage

@Suite("JSON values")
struct JSONValueTests {
    @Test func readsScalarsAndContainers() throws {
        #expect(try Value(jsonText: "null") == .null)
        #expect(try Value(jsonText: " true ") == .bool(true))
        #expect(try Value(jsonText: "42") == .int(42))
        #expect(try Value(jsonText: "-7") == .int(-7))
        #expect(try Value(jsonText: "2.5") == .double(2.5))
        #expect(try Value(jsonText: "1e3") == .int(1000))
        #expect(try Value(jsonText: "3.0").isIdenticalKind(to: .int(3)))
        #expect(try Value(jsonText: "92233720368547758070") == .double(92233720368547758070.0))
        #expect(try Value(jsonText: #""a\"b\\c\n\u00e9\ud83d\ude00""#) == .string("a\"b\\c\né😀"))
        #expect(try Value(jsonText: "[1, \"x\", [], {}]") == .list([1, "x", .list([]), .object([:])]))
        #expect(try Value(jsonText: #"{"name": "Paris", "population": 2148000}"#) == .object(["name": "Paris", "population": 2148000]))
    }

    @Test func readsTypedValues() throws {
        #expect(try Value(jsonText: #"{"$date": "2001-01-01T00:00:00Z"}"#) == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(try Value(jsonText: #"{"$date": "2001-01-01T00:00:00.250Z"}"#) == .date(Date(timeIntervalSinceReferenceDate: 0.25)))
        #expect(try Value(jsonText: #"{"$location": [48.8566, 2.3522]}"#) == .location(Location(latitude: 48.8566, longitude: 2.3522)))
        #expect(try Value(jsonText: #"{"$ref": "employee-1"}"#) == .reference(Reference(recordName: "employee-1")))
        #expect(try Value(jsonText: #"{"$ref": ["e", "staff"]}"#) == .reference(Reference(recordName: "e", zoneName: "staff")))
        #expect(try Value(jsonText: #"{"$bytes": "AAEC"}"#) == .bytes(Data([0, 1, 2])))
        #expect(try Value(jsonText: #"{"$other": 1}"#) == .object(["$other": 1]))
    }

    @Test func rejectsMalformedJSONWithOffsets() {
        let cases: [(String, String, Int)] = [
            ("[1, 2", "expected ',' or ']' in an array, found the end of the input", 5),
            ("{\"a\" 1}", "expected ':' after the key \"a\"", 5),
            ("01", "leading zeros are not allowed in JSON numbers", 2),
            ("\"abc", "unterminated string", 4),
            ("tru", "expected 'true'", 0),
            ("1 2", "unexpected text after the JSON value", 2),
            (#"{"$date": "yesterday"}"#, "{\"$date\": ...} needs an ISO 8601 date string such as \"2024-05-01T12:00:00Z\"", 0),
            (#"{"$location": [100, 0]}"#, "{\"$location\": ...} latitude must be within -90...90 and longitude within -180...180", 0),
            ("\"\\x\"", "unknown escape '\\x' in a string", 3),
            ("\"\\ud800\"", "unpaired UTF-16 surrogate in \\u escape", 7),
        ]
        for (text, message, offset) in cases {
            #expect(throws: JSONParsingError(message: message, offset: offset), "\(text)") { try Value(jsonText: text) }
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParsingError.self) { try Value(jsonText: deep) }
    }

    @Test func writesAndReadsBack() throws {
        let value: Value = .object([
            "name": "Zürich \"quoted\"\n",
            "population": 402_762,
            "ratio": 0.5,
            "when": .date(Date(timeIntervalSinceReferenceDate: 736_214_400)),
            "where": .location(Location(latitude: 47.37, longitude: 8.54)),
            "who": .reference(Reference(recordName: "r1", zoneName: "z")),
            "blob": .bytes(Data([255, 0])),
            "tags": ["a", nil, true],
        ])
        let text = value.jsonText()
        #expect(text == #"{"blob":{"$bytes":"/wA="},"name":"Zürich \"quoted\"\n","population":402762,"ratio":0.5,"tags":["a",null,true],"when":{"$date":"2024-05-01T00:00:00Z"},"where":{"$location":[47.37,8.54]},"who":{"$ref":["r1","z"]}}"#)
        #expect(try Value(jsonText: text) == value)
        #expect(Value.double(3).jsonText() == "3.0")
        #expect(Value.double(.nan).jsonText() == "null")
    }
}

extension Value {
    /// Whether both values are the same case (ignoring NSNumber-style equality across number kinds).
    func isIdenticalKind(to other: Value) -> Bool { typeName == other.typeName }
}

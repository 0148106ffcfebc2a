import Foundation
import Testing
@testable import PredicateLanguage

/// Issue #28: values print as a user writes them, not as enum cases; the debug form names the
/// kinds a literal leaves open.
@Suite("Values print as literals")
struct ValueDescriptionTests {
    @Test("Each kind's description")
    func descriptions() {
        #expect(Value.string("Paris").description == #""Paris""#)
        #expect(Value.string("say \"hi\"\n").description == #""say \"hi\"\n""#)
        #expect(Value.int(2_138_551).description == "2138551")
        #expect(Value.double(2.5).description == "2.5")
        #expect(Value.double(2).description == "2.0")
        #expect(Value.bool(true).description == "true")
        #expect(Value.null.description == "nil")
        #expect(Value.list([1, 2]).description == "[1, 2]")
        #expect(Value.list([]).description == "[]")
        #expect(Value.object(["b": 2, "a": "x"]).description == #"["a": "x", "b": 2]"#)
        #expect(Value.object([:]).description == "[:]")
        #expect(Value.date(Date(timeIntervalSince1970: 1_714_564_800)).description == "2024-05-01T12:00:00Z")
        #expect(Value.date(Date(timeIntervalSince1970: 0.5)).description == "1970-01-01T00:00:00.500Z")
        #expect(Value.bytes(Data([1, 2, 255])).description == "<3 bytes>")
        #expect(Value.location(Location(latitude: 48.8566, longitude: 2.3522)).description == "<48.8566, 2.3522>")
        #expect(Value.reference(Reference(recordName: "FR")).description == "FR")
        #expect(Value.reference(Reference(recordName: "FR", zoneName: "Geo")).description == "Geo/FR")
    }

    @Test("print, string interpolation and arrays use the literal form")
    func printing() {
        let values: [Value] = [1, "two", .null]
        #expect("\(values)" == #"[1, "two", nil]"#)
        #expect(String(describing: Value.string("Paris")) == #""Paris""#)
        #expect(String(describing: Optional(Value.string("Paris"))) == #"Optional("Paris")"#)
    }

    @Test("The debug description names dates, bytes, locations and references")
    func debugDescriptions() {
        #expect(Value.date(Date(timeIntervalSince1970: 0)).debugDescription == "Date(1970-01-01T00:00:00Z)")
        #expect(Value.bytes(Data([1, 2, 255])).debugDescription == "Data(3 bytes: 0x0102ff)")
        #expect(Value.bytes(Data(repeating: 0, count: 40)).debugDescription == "Data(40 bytes: 0x" + String(repeating: "00", count: 32) + "…)")
        #expect(Value.location(Location(latitude: 1, longitude: 2)).debugDescription == "Location(<1.0, 2.0>)")
        #expect(Value.reference(Reference(recordName: "FR")).debugDescription == "Reference(FR)")
        #expect(Value.list([.date(Date(timeIntervalSince1970: 0)), "x"]).debugDescription == #"[Date(1970-01-01T00:00:00Z), "x"]"#)
        #expect(Value.string("Paris").debugDescription == #""Paris""#)
    }
}

import Foundation
import PredicateLanguage
@testable import QueryServer
import Testing

/// Issue 45, item 3: the request types are `Decodable`, decoded through `RequestBodyDecoder`,
/// and a member that is missing or of the wrong kind is still a `BAD_REQUEST` naming its path and
/// the type expected, in the words the hand-written decoding used.
@Suite struct RequestBodyDecoderTests {
    /// The reason of the `BAD_REQUEST` that decoding `json` as `type` throws (nil: it decodes).
    static func reason<T: Decodable>(_ type: T.Type, _ json: JSONValue, at path: String = "") -> String? {
        do {
            _ = try RequestBodyDecoder.decode(type, from: json, at: path)
            return nil
        } catch {
            #expect(error.code == .badRequest)
            return error.reason
        }
    }

    @Test func aMemberAbsentOrNullIsMissingAndAnElementNullIsOfTheWrongKind() {
        #expect(Self.reason(RecordsLookupRequest.self, ["records": [["recordName": .null]]]) == "records[0].recordName is missing (a string)")
        #expect(Self.reason(RecordsLookupRequest.self, ["records": .null]) == "records is missing (an array of objects)")
        #expect(Self.reason(RecordsLookupRequest.self, ["records": [.null]]) == "records[0] is an object, not null")
        #expect(Self.reason(RecordsQueryRequest.self, ["query": ["recordType": "City"], "desiredKeys": ["name", .null]])
            == "desiredKeys[1] is a string, not null")
        #expect(Self.reason(RecordsQueryRequest.self, ["query": ["recordType": "City"], "desiredKeys": "name"])
            == "desiredKeys is an array of strings, not a string")
        #expect(Self.reason(RecordsQueryRequest.self, ["query": ["recordType": "City"], "zoneID": .null, "resultsLimit": .null]) == nil)
    }

    @Test func theWordsOfAMemberAreItsOwn() {
        #expect(Self.reason(RecordsQueryRequest.self, ["query": ["recordType": "City"], "resultsLimit": 0]) == "resultsLimit is a number from 1 to 200")
        #expect(Self.reason(PredicateCheckRequest.self, [:]) == "predicate is missing (an NSPredicate format string)")
        #expect(Self.reason(PredicateCheckRequest.self, ["predicate": "TRUEPREDICATE", "rules": "strict"]) == #"rules is "cloudkit", "full" or "coredata""#)
        #expect(Self.reason(AssetsUploadRequest.self, ["tokens": [["recordType": "Note", "fieldName": "file", "size": "big"]]])
            == "tokens[0].size is the file's size in bytes (an integer), not a string")
        #expect(Self.reason(RecordsQueryRequest.self, ["query": ["recordType": "City", "filterBy": [["comparator": "EQUALS", "fieldValue": ["value": 1]]]]])
            == "query.filterBy[0].fieldName is missing (a string, or a systemFieldName instead)")
        #expect(Self.reason(SubscriptionsModifyRequest.self, ["operations": [["operationType": "delete"]]]) == nil)
        #expect(Self.reason(SubscriptionsModifyRequest.Operation.self, ["operationType": "delete"], at: "operations[0]")
            == "operations[0].subscription is missing (an object)")
        #expect(Self.reason(SubscriptionsModifyRequest.Operation.self, ["operationType": "drop", "subscription": [:]], at: "operations[0]")
            == #"operations[0].operationType is "create", "update" or "delete", not "drop""#)
    }

    @Test func numbersSentAsStringsAreNumbers() throws {
        let request = try RequestBodyDecoder.decode(RecordsQueryRequest.self, from: ["query": ["recordType": "City"], "resultsLimit": "10"])
        #expect(request.resultsLimit == 10)
        #expect(Self.reason(RecordsQueryRequest.self, ["query": ["recordType": "City"], "resultsLimit": 2.5]) == "resultsLimit is a number from 1 to 200, not a number")
    }

    @Test func aBatchIsCountedBeforeItsElementsAreDecoded() {
        let operations = JSONValue.array(Array(repeating: "not an operation", count: 201))
        #expect(Self.reason(RecordsModifyRequest.self, ["operations": operations]) == "operations holds at most 200 entries; this one has 201")
        #expect(Self.reason(SubscriptionsModifyRequest.self, ["operations": "all"]) == "operations is an array of {operationType, subscription}, not a string")
    }

    @Test func aZoneIsNamedDirectlyOrInAZoneID() throws {
        let zones = try RequestBodyDecoder.decode(ZonesLookupRequest.self, from: ["zones": [["zoneName": "a"], ["zoneID": ["zoneName": "b"]]]])
        #expect(zones.zones.map(\.zoneName) == ["a", "b"])
        #expect(Self.reason(ZonesLookupRequest.self, ["zones": [["zoneID": ["zoneName": 3]]]]) == "zones[0].zoneID.zoneName is a string, not a number")
        #expect(Self.reason(ZonesLookupRequest.self, ["zones": [["zoneID": .null]]]) == "zones[0].zoneName is missing (a string)")
    }

    @Test func fieldValuesDecodeByTheirTypeOrTheirJSON() throws {
        func operation(_ fields: JSONValue) -> JSONValue {
            ["operations": [["operationType": "create", "record": ["recordType": "Place", "fields": fields]]]]
        }
        let request = try RequestBodyDecoder.decode(RecordsModifyRequest.self, from: operation([
            "name": ["value": "Paris"], "population": ["value": "2100000", "type": "INT64"], "gone": ["value": .null],
            "parent": ["value": ["recordName": "fr", "action": "DELETE_SELF"], "type": "REFERENCE"],
            "where": ["value": ["latitude": 48.85, "longitude": 2.35]],
        ]))
        let fields = request.operations[0].fields
        #expect(fields["name"] == .string("Paris"))
        #expect(fields["population"] == .int(2_100_000))
        #expect(fields["gone"] == .null)
        #expect(fields["parent"] == .reference(Reference(recordName: "fr", zoneName: Reference.defaultZoneName)))
        #expect(fields["where"] == .location(Location(latitude: 48.85, longitude: 2.35, altitude: nil)))
        #expect(request.operations[0].deleteSelfFields == ["parent"])

        #expect(Self.reason(RecordsModifyRequest.self, operation(["name": .null])) == "operations[0].record.fields.name is an object, not null")
        #expect(Self.reason(RecordsModifyRequest.self, operation(["name": "Paris"])) == "operations[0].record.fields.name is an object, not a string")
        #expect(Self.reason(RecordsModifyRequest.self, operation(["where": ["value": "here", "type": "LOCATION"]]))
            == #"operations[0].record.fields.where.value is a location {"latitude": number, "longitude": number}, not a string"#)
        #expect(Self.reason(RecordsModifyRequest.self, operation(["where": ["value": ["latitude": "north", "longitude": 2], "type": "LOCATION"]]))
            == "operations[0].record.fields.where.value.latitude is a number, not a string")
        #expect(Self.reason(RecordsModifyRequest.self, operation(["parent": ["value": ["zoneID": ["zoneName": "z"]], "type": "REFERENCE"]]))
            == "operations[0].record.fields.parent.value.recordName is missing (a string)")
        #expect(Self.reason(RecordsModifyRequest.self, operation(["file": ["value": ["size": 3], "type": "ASSETID"]]))
            == "operations[0].record.fields.file.value.receipt is missing: an ASSETID value needs the receipt its upload answered")
        #expect(Self.reason(RecordsModifyRequest.self, operation(["name": ["value": "Paris", "type": 3]]))
            == #"operations[0].record.fields.name.type is a field type such as "STRING", not a number"#)
    }

    @Test func argumentsAreInTheCommandLinesMapping() throws {
        let query = try RequestBodyDecoder.decode(RecordQueryRequest.self, from: [
            "recordType": "City", "predicate": "name == %@ AND founded < %@", "arguments": ["Paris", ["$date": "2024-05-01T12:00:00Z"]],
        ], at: "query")
        #expect(query.arguments.first == .string("Paris"))
        #expect(query.arguments.count == 2)
        if case .date? = query.arguments.last {} else { Issue.record("the second argument is not a date: \(String(describing: query.arguments.last))") }
    }
}

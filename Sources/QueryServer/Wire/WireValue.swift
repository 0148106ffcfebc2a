import Foundation
import PredicateLanguage

/// Field values in CloudKit's wire shape, `{"value": ..., "type": "..."}`, and back: one field's
/// ``JSONValue`` to a store `Value` and back (``WireRecord`` does whole records; ``TypedJSON``
/// reads the command line's `{"$date": ...}` mapping instead of CloudKit's typed objects).
///
/// | type | value | store value |
/// |---|---|---|
/// | `STRING` | string | ``Value/string(_:)`` |
/// | `INT64` | integer (a string with `numbersAsStrings`) | ``Value/int(_:)``; booleans go out as 0 and 1 |
/// | `DOUBLE` | number | ``Value/double(_:)`` |
/// | `TIMESTAMP` | milliseconds since 1970 | ``Value/date(_:)`` |
/// | `BYTES` | base64 | ``Value/bytes(_:)`` |
/// | `LOCATION` | `{latitude, longitude, altitude, ...}` | ``Value/location(_:)`` |
/// | `REFERENCE` | `{recordName, zoneID: {zoneName}, action}` | ``Value/reference(_:)`` |
/// | `..._LIST` | an array of the element's values | ``Value/list(_:)`` |
///
/// A value sent without a type is typed by its JSON: string, integer, number, an object with
/// `latitude` (a location) or `recordName` (a reference), an array (a list).
///
/// ```swift
/// try WireValue.value(from: ["value": 42, "type": "INT64"], field: "population")   // .int(42)
/// WireValue.json(.date(date), numbersAsStrings: false)   // {"value": 1714564800000, "type": "TIMESTAMP"}
/// ```
enum WireValue {
    // MARK: From the wire

    /// The store value a field value dictionary (`{value, type}`) holds.
    static func value(from fieldValue: JSONValue, field: String) throws(ServerError) -> Value {
        guard case .object = fieldValue else {
            throw ServerError(.badRequest, "field '\(field)': a field value is an object {\"value\": ..., \"type\": ...}, not \(fieldValue.kindName)")
        }
        guard let raw = fieldValue["value"] else {
            throw ServerError(.badRequest, "field '\(field)': the field value has no \"value\"")
        }
        let type: String?
        switch fieldValue["type"] {
        case nil, .null?: type = nil
        case .string(let name)?: type = name
        case let other?: throw ServerError(.badRequest, "field '\(field)': \"type\" is a string such as \"STRING\", not \(other.kindName)")
        }
        return try value(raw, type: type, field: field)
    }

    /// A raw JSON value read as a type (nil: typed by its JSON).
    static func value(_ raw: JSONValue, type: String?, field: String) throws(ServerError) -> Value {
        if raw.isNull { return .null }
        guard let type else { return try inferred(raw, field: field) }
        if type.hasSuffix("_LIST") {
            guard let elements = raw.arrayValue else {
                throw ServerError(.badRequest, "field '\(field)': a \(type) value is an array, not \(raw.kindName)")
            }
            let elementType = String(type.dropLast("_LIST".count))
            var members: [Value] = []
            members.reserveCapacity(elements.count)
            for element in elements { members.append(try scalar(element, type: elementType, field: field)) }
            return .list(members)
        }
        return try scalar(raw, type: type, field: field)
    }

    private static func scalar(_ raw: JSONValue, type: String, field: String) throws(ServerError) -> Value {
        func wrong(_ expected: String) -> ServerError {
            ServerError(.badRequest, "field '\(field)': a \(type) value is \(expected), not \(raw.kindName)")
        }
        switch type {
        case "STRING":
            guard let text = raw.stringValue else { throw wrong("a string") }
            return .string(text)
        case "INT64":
            if let flag = raw.boolValue { return .int(flag ? 1 : 0) }
            guard let integer = raw.integerValue else { throw wrong("an integer") }
            return .int(integer)
        case "DOUBLE":
            guard let number = raw.doubleValue else { throw wrong("a number") }
            return .double(number)
        case "TIMESTAMP":
            guard let milliseconds = raw.doubleValue else { throw wrong("milliseconds since 1970") }
            return .date(Date(timeIntervalSince1970: milliseconds / 1000))
        case "BYTES":
            guard let text = raw.stringValue, let data = Data(base64Encoded: text) else { throw wrong("base64 text") }
            return .bytes(data)
        case "LOCATION":
            return try location(raw, field: field)
        case "REFERENCE":
            return try reference(raw, field: field)
        case "ASSETID":
            throw ServerError(.badRequest, "field '\(field)': assets are not supported by this server")
        default:
            throw ServerError(.badRequest, "field '\(field)': unknown field type '\(type)' (STRING, INT64, DOUBLE, TIMESTAMP, BYTES, LOCATION, REFERENCE, or one of them with _LIST)")
        }
    }

    private static func inferred(_ raw: JSONValue, field: String) throws(ServerError) -> Value {
        switch raw {
        case .null: return .null
        case .string(let text): return .string(text)
        case .integer(let integer): return .int(integer)
        case .number(let number): return .double(number)
        case .bool(let flag): return .int(flag ? 1 : 0)
        case .array(let elements):
            var members: [Value] = []
            for element in elements { members.append(try inferred(element, field: field)) }
            return .list(members)
        case .object:
            if raw["latitude"] != nil { return try location(raw, field: field) }
            if raw["recordName"] != nil { return try reference(raw, field: field) }
            throw ServerError(.badRequest, "field '\(field)': an object value needs a \"type\" (LOCATION or REFERENCE)")
        }
    }

    /// A location dictionary: `latitude` and `longitude` in degrees, `altitude` in meters.
    static func location(_ raw: JSONValue, field: String) throws(ServerError) -> Value {
        guard let latitude = raw["latitude"]?.doubleValue, let longitude = raw["longitude"]?.doubleValue else {
            throw ServerError(.badRequest, "field '\(field)': a location is {\"latitude\": number, \"longitude\": number}")
        }
        let location = Location(latitude: latitude, longitude: longitude, altitude: raw["altitude"]?.doubleValue)
        guard location.isValid else {
            throw ServerError(.badRequest, "field '\(field)': latitude must be within ±90 and longitude within ±180 degrees")
        }
        return .location(location)
    }

    /// A reference dictionary: `recordName`, and `zoneID.zoneName` (the default zone when absent).
    static func reference(_ raw: JSONValue, field: String) throws(ServerError) -> Value {
        guard let name = raw["recordName"]?.stringValue, !name.isEmpty else {
            throw ServerError(.badRequest, "field '\(field)': a reference is {\"recordName\": string, \"zoneID\": {\"zoneName\": string}}")
        }
        let zone = raw["zoneID"]?["zoneName"]?.stringValue ?? Reference.defaultZoneName
        return .reference(Reference(recordName: name, zoneName: zone))
    }

    // MARK: To the wire

    /// A store value as a field value dictionary; nil for a value CloudKit has no type for.
    static func json(_ value: Value, numbersAsStrings: Bool) -> JSONValue? {
        if case .list(let members) = value {
            let elementType = members.lazy.compactMap(typeName).first ?? "STRING"
            return .object(["value": .array(members.compactMap { raw($0, numbersAsStrings: numbersAsStrings) }), "type": .string(elementType + "_LIST")])
        }
        guard let type = typeName(value), let raw = raw(value, numbersAsStrings: numbersAsStrings) else { return nil }
        return .object(["value": raw, "type": .string(type)])
    }

    /// Whether a value has a wire form (``json(_:numbersAsStrings:)`` is not nil).
    static func hasWireType(_ value: Value) -> Bool {
        if case .list = value { return true }
        return typeName(value) != nil
    }

    /// ``json(_:numbersAsStrings:)``'s object written straight into bytes (for a value with a
    /// wire form): strings, numbers and timestamps without building the object.
    static func write(_ value: Value, numbersAsStrings: Bool, into bytes: inout [UInt8]) {
        switch value {
        case .string(let text):
            bytes.append(contentsOf: #"{"value":"#.utf8)
            JSONWriter.writeString(text, into: &bytes)
            bytes.append(contentsOf: #","type":"STRING"}"#.utf8)
        case .int(let integer) where !numbersAsStrings:
            bytes.append(contentsOf: #"{"value":"#.utf8)
            JSONWriter.writeInteger(integer, into: &bytes)
            bytes.append(contentsOf: #","type":"INT64"}"#.utf8)
        case .double(let number) where !numbersAsStrings && number.isFinite:
            bytes.append(contentsOf: #"{"value":"#.utf8)
            JSONWriter.writeNumber(number, nonFinite: .string, into: &bytes)
            bytes.append(contentsOf: #","type":"DOUBLE"}"#.utf8)
        case .date(let date):
            bytes.append(contentsOf: #"{"value":"#.utf8)
            milliseconds(date).write(into: &bytes)
            bytes.append(contentsOf: #","type":"TIMESTAMP"}"#.utf8)
        default:
            json(value, numbersAsStrings: numbersAsStrings)?.write(into: &bytes)
        }
    }

    /// The wire type name of a scalar value.
    static func typeName(_ value: Value) -> String? {
        switch value {
        case .string: "STRING"
        case .int, .bool: "INT64"
        case .double: "DOUBLE"
        case .date: "TIMESTAMP"
        case .bytes: "BYTES"
        case .location: "LOCATION"
        case .reference: "REFERENCE"
        case .null, .list, .object: nil
        }
    }

    /// A scalar value's raw JSON.
    static func raw(_ value: Value, numbersAsStrings: Bool) -> JSONValue? {
        switch value {
        case .string(let text): return .string(text)
        case .int(let integer): return numbersAsStrings ? .string(String(integer)) : .integer(integer)
        case .bool(let flag): return numbersAsStrings ? .string(flag ? "1" : "0") : .integer(flag ? 1 : 0)
        case .double(let number): return numbersAsStrings ? .string(String(number)) : .number(number)
        case .date(let date): return milliseconds(date)
        case .bytes(let data): return .string(data.base64EncodedString())
        case .location(let location):
            var members: [String: JSONValue] = ["latitude": .number(location.latitude), "longitude": .number(location.longitude)]
            if let altitude = location.altitude { members["altitude"] = .number(altitude) }
            return .object(members)
        case .reference(let reference):
            return .object([
                "recordName": .string(reference.recordName),
                "zoneID": .object(["zoneName": .string(reference.zoneName)]),
                "action": .string("NONE"),
            ])
        case .null, .list, .object: return nil
        }
    }

    /// A date as CloudKit's timestamp: whole milliseconds since 1970, as CloudKit sends them
    /// (a date within a millisecond of another reads back as the same timestamp).
    static func milliseconds(_ date: Date) -> JSONValue {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 9e15 else { return .number(milliseconds) }
        return .integer(Int64(milliseconds))
    }
}

// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage

/// Field values in CloudKit's wire shape, `{"value": ..., "type": "..."}`, and back: one field's
/// raw ``JSONValue`` and type to a store `Value` and back (``WireFieldValue`` decodes a request's
/// field value dictionary through it; ``WireRecord`` does whole records; ``TypedJSON`` reads the
/// command line's `{"$date": ...}` mapping instead of CloudKit's typed objects).
///
/// | type | value | store value |
/// |---|---|---|
/// | `STRING` | string | ``Value/string(_:)`` |
/// | `INT64` | integer (a string with `numbersAsStrings`) | ``Value/int(_:)``; booleans go out as 0 and 1 |
/// | `DOUBLE` | number | ``Value/double(_:)`` |
/// | `TIMESTAMP` | milliseconds since 1970 | ``Value/date(_:)`` |
/// | `BYTES` | base64 | ``Value/bytes(_:)`` |
/// | `LOCATION` | `{latitude, longitude, altitude, ...}` | ``Value/location(_:)`` |
/// | `REFERENCE` | `{recordName, zoneID: {zoneName}, action}` | ``Value/reference(_:)``; a `DELETE_SELF` action is kept on the record (``ReferenceAction``) |
/// | `ASSETID` | `{fileChecksum, size, receipt, downloadURL}` | an `Asset`'s reference (``AssetWire``) |
/// | `..._LIST` | an array of the element's values | ``Value/list(_:)`` |
///
/// A value sent without a type is typed by its JSON: string, integer, number, an object with
/// `latitude` (a location) or `recordName` (a reference), an array (a list).
///
/// ```swift
/// try WireValue.value(42, type: "INT64", path: "fields.population.value")   // .int(42)
/// WireValue.json(.date(date), numbersAsStrings: false)   // {"value": 1714564800000, "type": "TIMESTAMP"}
/// ```
enum WireValue {
    // MARK: From the wire

    /// A raw JSON value (at `path`) read as a type (nil: typed by its JSON).
    static func value(_ raw: JSONValue, type: String?, path: @autoclosure () -> String) throws(ServerError) -> Value {
        if raw.isNull { return .null }
        guard let type else { return try inferred(raw, path: path()) }
        if type.hasSuffix("_LIST") {
            guard let elements = raw.arrayValue else {
                throw ServerError(.badRequest, "\(path()) is an array (\(type)), not \(raw.kindName)")
            }
            let elementType = String(type.dropLast("_LIST".count))
            var members: [Value] = []
            members.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                members.append(try scalar(element, type: elementType, path: "\(path())[\(index)]"))
            }
            return .list(members)
        }
        return try scalar(raw, type: type, path: path())
    }

    private static func scalar(_ raw: JSONValue, type: String, path: @autoclosure () -> String) throws(ServerError) -> Value {
        func wrong(_ expected: String) -> ServerError {
            ServerError(.badRequest, "\(path()) is \(expected) (\(type)), not \(raw.kindName)")
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
            return try location(raw, path: path())
        case "REFERENCE":
            return try reference(raw, path: path())
        case "ASSETID":
            // Resolved against the store before saving (AssetWire, CloudKitService+Assets).
            return try AssetWire.pendingValue(raw, path: path())
        default:
            throw ServerError(.badRequest, "\(path()): unknown field type '\(type.prefix(80))' (STRING, INT64, DOUBLE, TIMESTAMP, BYTES, LOCATION, REFERENCE, ASSETID, or one of them with _LIST)")
        }
    }

    private static func inferred(_ raw: JSONValue, path: @autoclosure () -> String) throws(ServerError) -> Value {
        switch raw {
        case .null: return .null
        case .string(let text): return .string(text)
        case .integer(let integer): return .int(integer)
        case .number(let number): return .double(number)
        case .bool(let flag): return .int(flag ? 1 : 0)
        case .array(let elements):
            var members: [Value] = []
            for (index, element) in elements.enumerated() { members.append(try inferred(element, path: "\(path())[\(index)]")) }
            return .list(members)
        case .object:
            if raw["latitude"] != nil { return try location(raw, path: path()) }
            if raw["recordName"] != nil { return try reference(raw, path: path()) }
            throw ServerError(.badRequest, "\(path()) is an object, which needs a \"type\" (LOCATION or REFERENCE)")
        }
    }

    /// A location dictionary (at `path`): `latitude` and `longitude` in degrees, `altitude` in meters.
    static func location(_ raw: JSONValue, path: String) throws(ServerError) -> Value {
        .location(try RequestBodyDecoder.decode(LocationDictionary.self, from: raw, at: path).location)
    }

    /// A reference dictionary (at `path`): `recordName`, and `zoneID.zoneName` (the default zone when absent).
    static func reference(_ raw: JSONValue, path: String) throws(ServerError) -> Value {
        .reference(try RequestBodyDecoder.decode(ReferenceDictionary.self, from: raw, at: path).reference)
    }

    // MARK: To the wire

    /// A store value as a field value dictionary; nil for a value CloudKit has no type for.
    /// `action` is the action its references carry (``ReferenceAction``).
    static func json(_ value: Value, numbersAsStrings: Bool, action: ReferenceAction = .none) -> JSONValue? {
        if case .list(let members) = value {
            let elementType = members.lazy.compactMap(typeName).first ?? "STRING"
            return .object([
                "value": .array(members.compactMap { raw($0, numbersAsStrings: numbersAsStrings, action: action) }), "type": .string(elementType + "_LIST"),
            ])
        }
        guard let type = typeName(value), let raw = raw(value, numbersAsStrings: numbersAsStrings, action: action) else { return nil }
        return .object(["value": raw, "type": .string(type)])
    }

    /// Whether a value has a wire form (``json(_:numbersAsStrings:)`` is not nil).
    static func hasWireType(_ value: Value) -> Bool {
        if case .list = value { return true }
        return typeName(value) != nil
    }

    /// ``json(_:numbersAsStrings:)``'s object written straight into bytes (for a value with a
    /// wire form): strings, numbers and timestamps without building the object.
    static func write(_ value: Value, numbersAsStrings: Bool, action: ReferenceAction = .none, into bytes: inout [UInt8]) {
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
            json(value, numbersAsStrings: numbersAsStrings, action: action)?.write(into: &bytes)
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

    /// A scalar value's raw JSON; a reference carries `action`.
    static func raw(_ value: Value, numbersAsStrings: Bool, action: ReferenceAction = .none) -> JSONValue? {
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
                "action": .string(action.rawValue),
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
#endif

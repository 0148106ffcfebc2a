import Foundation

/// The one-key JSON objects that spell typed values:
/// `{"$date": "2024-05-01T12:00:00Z"}`, `{"$location": [latitude, longitude]}`
/// (or `[latitude, longitude, altitude]`), `{"$ref": "recordName"}` (or
/// `{"$ref": ["recordName", "zoneName"]}`), `{"$bytes": "base64"}`. ``Value``'s reading
/// (`JSONTree/jsonObject(_:)`) calls it for each one-key object, and `write(_:into:)` writes
/// the same shapes with the package's `JSONWriter`; CloudKit's wire spells typed values
/// differently (`{"value": ..., "type": "TIMESTAMP"}`, QueryServer's `WireValue`).
enum TypedJSONValue {
    static func decode(key: String, payload: Value) throws(JSONParsingError) -> Value {
        switch key {
        case "$date":
            guard case .string(let text) = payload, let date = ISO8601.date(from: text) else {
                throw JSONParsingError(message: "{\"$date\": ...} needs an ISO 8601 date string such as \"2024-05-01T12:00:00Z\"", offset: 0)
            }
            return .date(date)
        case "$location":
            guard case .list(let members) = payload, members.count == 2 || members.count == 3,
                  let latitude = members[0].numericValue, let longitude = members[1].numericValue
            else {
                throw JSONParsingError(message: "{\"$location\": ...} needs [latitude, longitude] or [latitude, longitude, altitude]", offset: 0)
            }
            let location = Location(latitude: latitude, longitude: longitude, altitude: members.count == 3 ? members[2].numericValue : nil)
            guard location.isValid else {
                throw JSONParsingError(message: "{\"$location\": ...} latitude must be within -90...90 and longitude within -180...180", offset: 0)
            }
            return .location(location)
        case "$ref":
            switch payload {
            case .string(let name) where !name.isEmpty:
                return .reference(Reference(recordName: name))
            case .list(let parts) where parts.count == 2:
                if case .string(let name) = parts[0], case .string(let zone) = parts[1], !name.isEmpty, !zone.isEmpty {
                    return .reference(Reference(recordName: name, zoneName: zone))
                }
            default:
                break
            }
            throw JSONParsingError(message: "{\"$ref\": ...} needs a record name or [recordName, zoneName]", offset: 0)
        case "$bytes":
            guard case .string(let text) = payload, let data = Data(base64Encoded: text) else {
                throw JSONParsingError(message: "{\"$bytes\": ...} needs a base64 string", offset: 0)
            }
            return .bytes(data)
        default:
            // Any other single "$key" object is an ordinary object.
            return .object([key: payload])
        }
    }

    /// Writes a date, bytes, a location or a reference as its one-key object (nothing for other values).
    static func write(_ value: Value, into bytes: inout [UInt8]) {
        switch value {
        case .date(let date):
            bytes.append(contentsOf: #"{"$date":"#.utf8)
            JSONWriter.writeString(ISO8601.string(from: date), into: &bytes)
        case .bytes(let data):
            bytes.append(contentsOf: #"{"$bytes":"#.utf8)
            JSONWriter.writeString(data.base64EncodedString(), into: &bytes)
        case .location(let location):
            bytes.append(contentsOf: #"{"$location":"#.utf8)
            let coordinates = [location.latitude, location.longitude] + (location.altitude.map { [$0] } ?? [])
            JSONWriter.writeArray(coordinates, into: &bytes) { number, bytes in JSONWriter.writeNumber(number, nonFinite: .null, into: &bytes) }
        case .reference(let reference):
            bytes.append(contentsOf: #"{"$ref":"#.utf8)
            if reference.zoneName == Reference.defaultZoneName {
                JSONWriter.writeString(reference.recordName, into: &bytes)
            } else {
                JSONWriter.writeArray([reference.recordName, reference.zoneName], into: &bytes) { text, bytes in JSONWriter.writeString(text, into: &bytes) }
            }
        default:
            return
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// ISO 8601 reading and writing, with and without fractional seconds.
    enum ISO8601 {
        static func date(from text: String) -> Date? {
            if let date = try? Date(text, strategy: .iso8601) { return date }
            let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            return try? withFraction.parse(text)
        }

        static func string(from date: Date) -> String {
            let seconds = date.timeIntervalSince1970
            if seconds == seconds.rounded() {
                return date.formatted(.iso8601)
            }
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
    }
}

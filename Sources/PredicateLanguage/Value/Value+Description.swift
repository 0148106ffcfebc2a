import Foundation

extension Value: CustomStringConvertible, CustomDebugStringConvertible {
    /// The value as a user writes it: `"Paris"`, `2138551`, `2.5`, `true`, `nil`, `[1, 2]`,
    /// `["population": 2138551]`, a date in ISO 8601 (`2024-05-01T12:00:00Z`), a location as
    /// `<48.8566, 2.3522>`, a reference as its record name, bytes as `<4 bytes>`.
    ///
    /// ```swift
    /// print(Value.string("Paris"))            // "Paris"
    /// print(Value.list([1, 2]))               // [1, 2]
    /// print([Value.int(1), "two"])            // [1, "two"]
    /// ```
    public var description: String {
        switch self {
        case .null: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let integer): return String(integer)
        case .double(let double): return "\(double)"
        case .string(let text): return text.debugDescription
        case .date(let date): return Self.isoDate(date)
        case .bytes(let data): return "<\(data.count) bytes>"
        case .location(let location): return location.description
        case .reference(let reference): return reference.description
        case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            guard !members.isEmpty else { return "[:]" }
            return "[" + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "]"
        }
    }

    /// The ``description`` with the kind of each value a literal leaves open: a date, bytes
    /// (in hexadecimal, the first 32), a location or a reference is named, and a double that
    /// holds a whole number keeps its `.0`.
    ///
    /// ```swift
    /// debugPrint(Value.date(Date(timeIntervalSince1970: 0)))   // Date(1970-01-01T00:00:00Z)
    /// debugPrint(Value.reference(Reference(recordName: "FR"))) // Reference(FR)
    /// ```
    public var debugDescription: String {
        switch self {
        case .date(let date): return "Date(\(Self.isoDate(date)))"
        case .bytes(let data):
            let hex = data.prefix(32).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
            return "Data(\(data.count) bytes: 0x\(hex)\(data.count > 32 ? "…" : ""))"
        case .location(let location): return "Location(\(location))"
        case .reference(let reference): return "Reference(\(reference))"
        case .list(let values): return "[" + values.map(\.debugDescription).joined(separator: ", ") + "]"
        case .object(let members):
            guard !members.isEmpty else { return "[:]" }
            return "[" + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription): \($0.value.debugDescription)" }.joined(separator: ", ") + "]"
        default: return description
        }
    }

    /// A date in ISO 8601, in UTC, with fractional seconds only when it has them.
    private static func isoDate(_ date: Date) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

import Foundation

/// Folds `CAST(constant, 'Type')` into a constant when the parser meets it, as
/// `NSExpression` does: `CAST(0, 'NSDate')` is the date 2001-01-01 00:00 UTC.
enum CastFolding {
    /// The type names `CAST` accepts.
    enum CastType: String {
        case string = "NSString"
        case number = "NSNumber"
        case date = "NSDate"
        case data = "NSData"
        case location = "CLLocation"
        case reference = "CKReference"
        /// An object, written as its JSON text (how `.object` constants print).
        case dictionary = "NSDictionary"
    }

    /// The folded constant, or `.cast(operand, type)` when the operand is not a
    /// constant or does not convert.
    static func fold(_ operand: FormatExpression, to type: CastType) -> FormatExpression {
        guard case .constant(let value) = operand, let folded = convert(value, to: type) else {
            return .cast(operand, type.rawValue)
        }
        return .constant(folded)
    }

    /// The value converted to the type, or nil when it does not convert.
    static func convert(_ value: Value, to type: CastType) -> Value? {
        switch (type, value) {
        case (.date, .date), (.string, .string), (.data, .bytes), (.location, .location), (.reference, .reference):
            return value
        case (.date, _):
            return value.numericValue.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case (.number, .int), (.number, .double), (.number, .bool):
            return value
        case (.number, .string(let text)):
            return number(from: text)
        case (.number, .date(let date)):
            return .double(date.timeIntervalSinceReferenceDate)
        case (.string, .int(let integer)):
            return .string(String(integer))
        case (.string, .double(let double)):
            return .string(String(double))
        case (.string, .bool(let flag)):
            return .string(flag ? "1" : "0")
        case (.data, .string(let text)):
            return Data(base64Encoded: text).map(Value.bytes)
        case (.location, .list(let members)) where members.count == 2 || members.count == 3:
            let numbers = members.compactMap(\.numericValue)
            guard numbers.count == members.count else { return nil }
            return .location(Location(latitude: numbers[0], longitude: numbers[1], altitude: numbers.count == 3 ? numbers[2] : nil))
        case (.reference, .string(let name)):
            return .reference(Reference(recordName: name))
        case (.dictionary, .object):
            return value
        case (.dictionary, .string(let json)):
            guard case .object(let members)? = try? Value(jsonText: json) else { return nil }
            return .object(members)
        case (.reference, .list(let members)) where members.count == 2:
            guard case .string(let name) = members[0], case .string(let zone) = members[1] else { return nil }
            return .reference(Reference(recordName: name, zoneName: zone))
        default:
            return nil
        }
    }

    /// A number from its text: an integer when integral, otherwise a double (`nan`, `inf`, `-inf` included).
    private static func number(from text: String) -> Value? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let integer = Int64(trimmed) { return .int(integer) }
        if let double = Double(trimmed) { return .double(double) }
        return nil
    }
}

import Foundation

/// `CAST(expression, "Type")` of a value that is only known at evaluation.
///
/// - `NSString`: strings as they are; integers in decimal; doubles in decimal
///   (integral doubles without a fraction: `2.0` gives `"2"`); booleans `"1"`/`"0"`.
/// - `NSNumber`: numbers as they are; booleans 0/1; strings parsed as an integer,
///   then as a double (`nil` when neither); dates as seconds since 2001-01-01 UTC.
/// - `NSDate`: numbers as seconds since 2001-01-01 UTC; dates as they are.
/// - `NSData`, `CLLocation`, `CKReference`: values of that kind as they are; strings
///   to their UTF-8 bytes for `NSData`.
///
/// Anything else casts to `nil`; an unknown type is `FormatPredicateError.evaluation`.
///
/// ```swift
/// try ValueCast.cast(.string("42"), to: "NSNumber")   // .int(42)
/// try ValueCast.cast(.int(0), to: "NSDate")           // .date(2001-01-01 00:00:00 UTC)
/// ```
public enum ValueCast {
    /// The type names CAST accepts.
    ///
    /// ```swift
    /// ValueCast.typeNames.contains("NSDate")   // true
    /// ```
    public static let typeNames: Set<String> = ["NSString", "NSNumber", "NSDate", "NSData", "CLLocation", "CKReference"]

    /// Casts a value to a type named as Foundation names it.
    ///
    /// ```swift
    /// try ValueCast.cast(.int(42), to: "NSString")   // .string("42")
    /// ```
    public static func cast(_ value: Value, to typeName: String) throws(FormatPredicateError) -> Value {
        if value.isNull, typeNames.contains(typeName) { return .null }
        switch typeName {
        case "NSString":
            switch value {
            case .string: return value
            case .int(let x): return .string(String(x))
            case .bool(let flag): return .string(flag ? "1" : "0")
            case .double(let x):
                if let exact = Int64(exactly: x) { return .string(String(exact)) }
                return .string(String(x))
            default: return .null
            }
        case "NSNumber":
            switch value {
            case .int, .double: return value
            case .bool(let flag): return .int(flag ? 1 : 0)
            case .string(let string):
                let trimmed = string.trimmingCharacters(in: .whitespaces)
                if let integer = Int64(trimmed) { return .int(integer) }
                if let double = Double(trimmed) { return .double(double) }
                return .null
            case .date(let date): return .double(date.timeIntervalSinceReferenceDate)
            default: return .null
            }
        case "NSDate":
            switch value {
            case .date: return value
            case .int, .double, .bool:
                return value.numericValue.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
            default: return .null
            }
        case "NSData":
            switch value {
            case .bytes: return value
            case .string(let string): return .bytes(Data(string.utf8))
            default: return .null
            }
        case "CLLocation":
            if case .location = value { return value }
            return .null
        case "CKReference":
            if case .reference = value { return value }
            return .null
        default:
            throw FormatPredicateError.evaluation(
                "CAST to \"\(typeName)\" is not supported; use one of NSString, NSNumber, NSDate, NSData, CLLocation, CKReference")
        }
    }
}

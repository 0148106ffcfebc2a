import Foundation

/// What a key reaches on a value, as Apple's key-value coding (`valueForKey:`) reaches it
/// during predicate evaluation.
///
/// - An object (a dictionary) gives its member; a missing member is nil (`NSDictionary`
///   `valueForKey:` is `objectForKey:` for a key without `@`).
/// - A list gives the list of what the key reaches on each member (`NSArray` `valueForKey:`),
///   so `items.price` is the list of the prices.
/// - A string reaches `length` (in UTF-16 code units, as `NSString`), `uppercaseString`,
///   `lowercaseString`, `capitalizedString`, `intValue`, `integerValue`, `longLongValue`,
///   `floatValue`, `doubleValue`, `boolValue` and `description`.
/// - A number or boolean reaches `intValue`, `integerValue`, `longLongValue`, `floatValue`,
///   `doubleValue`, `boolValue`, `stringValue` and `description`.
/// - A date reaches `timeIntervalSinceReferenceDate` and `timeIntervalSince1970`.
/// - Bytes reach `length`.
///
/// Any other key on a value is nil (Apple raises an exception for a key a value does not have).
///
/// ```swift
/// KeyValueCoding.value(forKey: "length", of: "naïve")          // .int(5)
/// KeyValueCoding.value(forKey: "intValue", of: " 42 apples")   // .int(42)
/// KeyValueCoding.value(forKey: "length", of: ["ab", "c"])      // .list([2, 1])
/// ```
public enum KeyValueCoding {
    /// The value `key` reaches on `value`.
    ///
    /// ```swift
    /// KeyValueCoding.value(forKey: "uppercaseString", of: "paris")   // .string("PARIS")
    /// ```
    @usableFromInline
    static func value(forKey key: String, of value: Value) -> Value {
        switch value {
        case .object(let fields): return fields[key] ?? .null
        case .list(let members): return .list(members.map { Self.value(forKey: key, of: $0) })
        case .string(let text): return stringProperty(key, of: text)
        case .int, .double, .bool: return numberProperty(key, of: value)
        case .date(let date): return dateProperty(key, of: date)
        case .bytes(let data): return key == "length" ? .int(Int64(data.count)) : .null
        case .null, .location, .reference: return .null
        }
    }

    /// The keys a string reaches (`NSString`).
    static func stringProperty(_ key: String, of text: String) -> Value {
        switch key {
        case "length": return .int(Int64(text.utf16.count))
        case "uppercaseString": return .string(text.uppercased())
        case "lowercaseString": return .string(text.lowercased())
        case "capitalizedString": return .string(text.capitalized)
        case "intValue": return .int(Int64(NumericPrefix.integer(of: text, bitWidth: 32)))
        case "integerValue", "longLongValue": return .int(NumericPrefix.integer(of: text, bitWidth: 64))
        case "doubleValue": return .double(NumericPrefix.double(of: text))
        case "floatValue": return .double(Double(Float(NumericPrefix.double(of: text))))
        case "boolValue": return .bool(NumericPrefix.bool(of: text))
        case "description": return .string(text)
        default: return .null
        }
    }

    /// The keys a number reaches (`NSNumber`); a boolean is the number 0 or 1.
    static func numberProperty(_ key: String, of value: Value) -> Value {
        switch key {
        case "intValue": return .int(Int64(Int32(truncatingIfNeeded: integerPart(of: value))))
        case "integerValue", "longLongValue": return .int(integerPart(of: value))
        case "doubleValue": return .double(value.numericValue ?? 0)
        case "floatValue": return .double(Double(Float(value.numericValue ?? 0)))
        case "boolValue": return .bool((value.numericValue ?? 0) != 0)
        case "stringValue", "description": return .string(numberText(of: value))
        default: return .null
        }
    }

    /// The keys a date reaches (`NSDate`).
    static func dateProperty(_ key: String, of date: Date) -> Value {
        switch key {
        case "timeIntervalSinceReferenceDate": return .double(date.timeIntervalSinceReferenceDate)
        case "timeIntervalSince1970": return .double(date.timeIntervalSince1970)
        default: return .null
        }
    }

    /// The number truncated toward zero to a 64-bit integer (saturating; NaN is 0).
    static func integerPart(of value: Value) -> Int64 {
        switch value {
        case .int(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        case .double(let number):
            if number.isNaN { return 0 }
            // 2^63 is the first double past Int64.max; -2^63 is Int64.min exactly.
            if number >= 9_223_372_036_854_775_808.0 { return .max }
            if number <= -9_223_372_036_854_775_808.0 { return .min }
            return Int64(number.rounded(.towardZero))
        default: return 0
        }
    }

    /// An integer, or a double or boolean that is one exactly (an index, a count); nil otherwise.
    static func exactInteger(_ value: Value) -> Int64? {
        switch value {
        case .int(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        case .double(let number): return Int64(exactly: number)
        default: return nil
        }
    }

    /// `stringValue` of a number: integers and booleans in decimal (`1` for true), doubles
    /// without a fraction when integral (`3`), otherwise in the shortest form that reads back exactly.
    static func numberText(of value: Value) -> String {
        switch value {
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "1" : "0"
        case .double(let number):
            if number.isFinite, number.rounded(.towardZero) == number, abs(number) < 1e15 { return String(Int64(number)) }
            return "\(number)"
        default: return ""
        }
    }
}

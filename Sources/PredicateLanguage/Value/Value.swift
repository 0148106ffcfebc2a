import Foundation

/// A dynamic value: what a key path, a constant or a format argument holds.
///
/// `Value` is the value model of the predicate language and of the record store.
/// Equality follows `NSNumber`: numbers compare by value across integer, floating
/// point and boolean, so `.int(1) == .double(1.0) == .bool(true)`. Every other
/// kind equals only values of its own kind (a string never equals a number).
///
/// ```swift
/// let population: Value = 2_148_000
/// let name: Value = "Paris"
/// let tags: Value = ["capital", "europe"]
/// population == .double(2_148_000)   // true
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from the JSON types
/// (`JSONValue`, `TypedJSONValue`, `WireRecord`, `WireValue`).
public enum Value: Sendable {
    /// The absence of a value (`nil`, `NULL` in a format string).
    case null
    /// A boolean. Compares as the number 0 or 1.
    case bool(Bool)
    /// A 64-bit signed integer.
    case int(Int64)
    /// A double-precision floating-point number.
    case double(Double)
    /// A Unicode string.
    case string(String)
    /// An instant in time.
    case date(Date)
    /// Raw bytes.
    case bytes(Data)
    /// A geographic location.
    case location(Location)
    /// A reference to another record.
    case reference(Reference)
    /// An ordered list of values (a to-many value, an aggregate `{a, b}`).
    case list([Value])
    /// A nested object: a dictionary of values reachable by key paths.
    case object([String: Value])
}

extension Value {
    /// The name of this value's kind, as used in error messages ("string", "integer", ...).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "double"
        case .string: "string"
        case .date: "date"
        case .bytes: "bytes"
        case .location: "location"
        case .reference: "reference"
        case .list: "list"
        case .object: "object"
        }
    }

    /// Whether this is `.null`.
    @inlinable
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The numeric value of a boolean, integer or double, as a `Double`; nil otherwise.
    @inlinable
    public var numericValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }

    /// Whether this value is a number (boolean, integer or double).
    @inlinable
    public var isNumeric: Bool {
        switch self {
        case .int, .double, .bool: true
        default: false
        }
    }

    /// The string payload, or nil when this is not a string.
    @inlinable
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The list payload, or nil when this is not a list.
    @inlinable
    public var listValue: [Value]? {
        if case .list(let value) = self { return value }
        return nil
    }
}

// MARK: - Equality and hashing (NSNumber semantics for numbers)

extension Value: Equatable {
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.string(let a), .string(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.location(let a), .location(let b)): return a == b
        case (.reference(let a), .reference(let b)): return a == b
        case (.list(let a), .list(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        default:
            guard lhs.isNumeric, rhs.isNumeric else { return false }
            return NumericComparison.compare(lhs, rhs) == .orderedSame
        }
    }
}

extension Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(Int64(value ? 1 : 0))
        case .int(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .double(let value):
            hasher.combine(1 as UInt8)
            // Integral doubles hash like the integer they equal.
            if let exact = Int64(exactly: value) {
                hasher.combine(exact)
            } else {
                hasher.combine(value)
            }
        case .string(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .date(let value):
            hasher.combine(3 as UInt8)
            hasher.combine(value)
        case .bytes(let value):
            hasher.combine(4 as UInt8)
            hasher.combine(value)
        case .location(let value):
            hasher.combine(5 as UInt8)
            hasher.combine(value)
        case .reference(let value):
            hasher.combine(6 as UInt8)
            hasher.combine(value)
        case .list(let value):
            hasher.combine(7 as UInt8)
            hasher.combine(value)
        case .object(let value):
            hasher.combine(8 as UInt8)
            hasher.combine(value)
        }
    }
}

/// Exact comparison of numbers of mixed kinds (integer, double, boolean).
public enum NumericComparison {
    /// Compares two numeric values exactly, without losing precision for large
    /// integers. Returns nil when either side is not a number or is NaN.
    @inlinable
    public static func compare(_ lhs: Value, _ rhs: Value) -> ComparisonResult? {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        case (.double(let a), .double(let b)):
            if a.isNaN || b.isNaN { return nil }
            return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        case (.int(let a), .double(let b)):
            return compare(integer: a, double: b)
        case (.double(let a), .int(let b)):
            return compare(integer: b, double: a).map(\.reversed)
        case (.bool(let a), _):
            return compare(.int(a ? 1 : 0), rhs)
        case (_, .bool(let b)):
            return compare(lhs, .int(b ? 1 : 0))
        default:
            return nil
        }
    }

    /// Compares an integer with a double exactly.
    @inlinable
    public static func compare(integer: Int64, double: Double) -> ComparisonResult? {
        if double.isNaN { return nil }
        if double >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if double < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let truncated = Int64(double.rounded(.towardZero))
        if integer < truncated { return .orderedAscending }
        if integer > truncated { return .orderedDescending }
        let fraction = double - double.rounded(.towardZero)
        if fraction > 0 { return .orderedAscending }
        if fraction < 0 { return .orderedDescending }
        return .orderedSame
    }
}

extension ComparisonResult {
    /// The result with its two sides swapped.
    @inlinable
    public var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}

// MARK: - Literals

extension Value: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension Value: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Value: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension Value: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension Value: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension Value: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Value...) { self = .list(elements) }
}

extension Value: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

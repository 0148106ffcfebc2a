import Foundation

/// A Swift value that can be passed to a format string for `%@`, `%K`, `%d`, `%f`, ...
///
/// ```swift
/// let predicate = try FormatPredicate(
///     format: "name == %@ AND quantity > %d AND tags CONTAINS %@", "widget", 3, "sale")
/// ```
///
/// Strings, integers of every width, `Double`, `Float`, `Bool`, `Date`, `Data`,
/// `UUID`, arrays, sets, string-keyed dictionaries, optionals, ``Value``,
/// ``Location`` and ``Reference`` conform.
public protocol FormatArgument {
    /// The argument as a predicate value.
    var formatArgumentValue: Value { get }
}

extension Value: FormatArgument {
    /// The value itself.
    public var formatArgumentValue: Value { self }
}

extension String: FormatArgument {
    /// `.string(self)`
    public var formatArgumentValue: Value { .string(self) }
}

extension Substring: FormatArgument {
    /// `.string(String(self))`
    public var formatArgumentValue: Value { .string(String(self)) }
}

extension Bool: FormatArgument {
    /// `.bool(self)`
    public var formatArgumentValue: Value { .bool(self) }
}

extension Int: FormatArgument {
    /// `.int(self)`
    public var formatArgumentValue: Value { .int(Int64(self)) }
}

extension Int8: FormatArgument {
    /// `.int(self)`
    public var formatArgumentValue: Value { .int(Int64(self)) }
}

extension Int16: FormatArgument {
    /// `.int(self)`
    public var formatArgumentValue: Value { .int(Int64(self)) }
}

extension Int32: FormatArgument {
    /// `.int(self)`
    public var formatArgumentValue: Value { .int(Int64(self)) }
}

extension Int64: FormatArgument {
    /// `.int(self)`
    public var formatArgumentValue: Value { .int(self) }
}

extension UInt: FormatArgument {
    /// `.int(self)`, or `.double` above `Int64.max`.
    public var formatArgumentValue: Value { UInt64(self).formatArgumentValue }
}

extension UInt8: FormatArgument {
    /// `.int(self)`
    public var formatArgumentValue: Value { .int(Int64(self)) }
}

extension UInt16: FormatArgument {
    /// `.int(self)`
    public var formatArgumentValue: Value { .int(Int64(self)) }
}

extension UInt32: FormatArgument {
    /// `.int(self)`
    public var formatArgumentValue: Value { .int(Int64(self)) }
}

extension UInt64: FormatArgument {
    /// `.int(self)`, or `.double` above `Int64.max`.
    public var formatArgumentValue: Value {
        if let exact = Int64(exactly: self) { return .int(exact) }
        return .double(Double(self))
    }
}

extension Double: FormatArgument {
    /// `.double(self)`
    public var formatArgumentValue: Value { .double(self) }
}

extension Float: FormatArgument {
    /// `.double(Double(self))`
    public var formatArgumentValue: Value { .double(Double(self)) }
}

extension Date: FormatArgument {
    /// `.date(self)`
    public var formatArgumentValue: Value { .date(self) }
}

extension Data: FormatArgument {
    /// `.bytes(self)`
    public var formatArgumentValue: Value { .bytes(self) }
}

extension UUID: FormatArgument {
    /// `.string(uuidString)`
    public var formatArgumentValue: Value { .string(uuidString) }
}

extension Location: FormatArgument {
    /// `.location(self)`
    public var formatArgumentValue: Value { .location(self) }
}

extension Reference: FormatArgument {
    /// `.reference(self)`
    public var formatArgumentValue: Value { .reference(self) }
}

extension Array: FormatArgument where Element: FormatArgument {
    /// A list of the members' values.
    public var formatArgumentValue: Value { .list(map(\.formatArgumentValue)) }
}

extension Set: FormatArgument where Element: FormatArgument {
    /// A list of the members' values, in the set's iteration order.
    public var formatArgumentValue: Value { .list(map(\.formatArgumentValue)) }
}

extension Dictionary: FormatArgument where Key == String, Value: FormatArgument {
    /// An object of the entries' values.
    public var formatArgumentValue: PredicateLanguage.Value { .object(mapValues(\.formatArgumentValue)) }
}

extension Optional: FormatArgument where Wrapped: FormatArgument {
    /// The wrapped value's value, or `.null` for nil.
    public var formatArgumentValue: Value {
        switch self {
        case .some(let wrapped): wrapped.formatArgumentValue
        case .none: .null
        }
    }
}

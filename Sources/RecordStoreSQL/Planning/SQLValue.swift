import Foundation
@_spi(StorageEngine) import RecordStoreCore

/// A value bound to a SQL placeholder or read from a column, independent of the database library.
///
/// ```swift
/// let arguments: [SQLValue] = [.text("_defaultZone"), .integer(1_000_000)]
/// arguments.map(\.description)   // ["\"_defaultZone\"", "1000000"]
/// ```
@_spi(StorageEngine) public enum SQLValue: Sendable, Hashable, CustomStringConvertible {
    /// SQL `NULL`.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// Text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// The value as a log shows it: text quoted, a blob by its size.
    @_spi(StorageEngine) public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .blob(let value): "<\(value.count) bytes>"
        }
    }

    /// The value as an integer, when it is one.
    @_spi(StorageEngine) public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}

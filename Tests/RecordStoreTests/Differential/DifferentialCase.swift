import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// One random query of the differential tests: a format string with `%@` arguments,
/// sorts and a limit, and the seed that generated it.
struct DifferentialCase: Sendable, CustomStringConvertible {
    /// The seed that generates exactly this case again.
    var seed: UInt64
    /// The predicate's format string; every constant is a `%@` argument.
    var format: String
    var arguments: [Value]
    var sorts: [Sort]
    var limit: Int?
    /// The fields the predicate and the sorts read, to print for a differing record.
    var fields: [String]

    var description: String {
        var text = "seed \(seed): \(format)"
        if !arguments.isEmpty { text += "  arguments: \(arguments.map(Self.describe).joined(separator: ", "))" }
        if !sorts.isEmpty { text += "  sorts: \(sorts)" }
        if let limit { text += "  limit: \(limit)" }
        return text
    }

    /// A value as the format language prints it (`"Paris"`, `{1, 2}`, `nil`).
    static func describe(_ value: Value) -> String {
        FormatExpression.constant(value).expressionFormat
    }
}

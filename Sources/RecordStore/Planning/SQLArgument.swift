import Foundation

/// A value bound to a SQL placeholder, independent of the database library.
enum SQLArgument: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .blob(let value): "<\(value.count) bytes>"
        }
    }
}

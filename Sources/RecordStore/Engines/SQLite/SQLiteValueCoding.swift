import Foundation
import GRDB
import PredicateLanguage

/// Converts between planner arguments, stored column values and ``Value``s.
enum SQLiteValueCoding {
    /// The database value of a planner argument.
    static func databaseValue(_ argument: SQLArgument) -> DatabaseValue {
        switch argument {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): value.databaseValue
        }
    }

    /// Statement arguments from planner arguments.
    static func statementArguments(_ arguments: [SQLArgument]) -> StatementArguments {
        StatementArguments(arguments.map { databaseValue($0) })
    }

    /// The value a stored column holds, read as a field of the type (a scalar type, or a list's element type).
    static func decode(_ stored: DatabaseValue, as type: FieldType) -> Value {
        switch (stored.storage, type) {
        case (.null, _):
            return .null
        case (.string(let text), .string):
            return .string(text)
        case (.int64(let integer), .bool):
            return .bool(integer != 0)
        case (.int64(let integer), .int64), (.int64(let integer), .double):
            return .int(integer)
        case (.double(let double), .int64), (.double(let double), .double):
            return .double(double)
        case (.double(let seconds), .date):
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (.int64(let seconds), .date):
            return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case (.blob(let data), .bytes):
            return .bytes(data)
        case (.string(let text), .location):
            return StoredValueEncoding.decodeLocation(text).map(Value.location) ?? .null
        case (.string(let text), .reference):
            return StoredValueEncoding.decodeReference(text).map(Value.reference) ?? .null
        case (_, .list):
            return .null
        case (.int64(let integer), _):
            return .int(integer)
        case (.double(let double), _):
            return .double(double)
        case (.string(let text), _):
            return .string(text)
        case (.blob(let data), _):
            return .bytes(data)
        }
    }
}


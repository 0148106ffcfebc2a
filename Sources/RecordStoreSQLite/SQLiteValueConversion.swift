import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Converts between the shared ``SQLValue`` and GRDB's `DatabaseValue`.
enum SQLiteValueConversion {
    /// The database value of a shared value.
    static func databaseValue(_ value: SQLValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let integer): integer.databaseValue
        case .real(let double): double.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        }
    }

    /// Statement arguments from shared values.
    static func statementArguments(_ values: [SQLValue]) -> StatementArguments {
        StatementArguments(values.map { databaseValue($0) })
    }

    /// The shared value of a database value.
    static func value(_ stored: DatabaseValue) -> SQLValue {
        switch stored.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let double): .real(double)
        case .string(let text): .text(text)
        case .blob(let data): .blob(data)
        }
    }
}

import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Binds a prepared statement's parameters one value at a time, straight from the values the
/// writer computes, then runs it: a row of a bulk write costs no `StatementArguments` (an array
/// of values built, mapped to `DatabaseValue`s, copied and checked again for every row, about a
/// tenth of an import's time). Strings and blobs are copied by SQLite as they are bound, as
/// `Statement.setArguments` binds them.
///
/// The statement must be one that has not failed (GRDB drops a failed statement from its caches,
/// and a writer that saw one fail throws), and only one binder uses it at a time.
///
/// ```swift
/// var row = SQLiteStatementBinder(try db.cachedStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)"), parameterCount: 2)
/// try row.bind("Paris")
/// try row.bind(SQLValue.integer(2_138_551))
/// try row.execute()
/// ```
struct SQLiteStatementBinder {
    private let statement: Statement
    private let parameterCount: Int
    private var bound: CInt = 0

    /// Starts binding a statement that has `parameterCount` parameters: its previous bindings
    /// are cleared.
    init(_ statement: Statement, parameterCount: Int) {
        // Resets the statement and clears its bindings; `execute()` then runs it with the values
        // bound here rather than checking arguments of its own.
        statement.setUncheckedArguments(StatementArguments())
        self.statement = statement
        self.parameterCount = parameterCount
    }

    /// Binds the next parameter.
    mutating func bind(_ value: some StatementBinding) throws {
        bound += 1
        let code = value.bind(to: statement.sqliteStatement, at: bound)
        // SQLITE_OK
        guard code == 0 else {
            throw RecordStoreError.storage("SQLite refused parameter \(bound) of \(statement.sql) (code \(code))")
        }
    }

    /// Binds the next parameter to a shared value.
    mutating func bind(_ value: SQLValue) throws {
        switch value {
        case .null: try bind(DatabaseValue.null)
        case .integer(let integer): try bind(integer)
        case .real(let double): try bind(double)
        case .text(let text): try bind(text)
        case .blob(let data): try bind(data)
        }
    }

    /// Binds the next parameter to null.
    mutating func bindNull() throws {
        try bind(DatabaseValue.null)
    }

    /// Runs the statement once every parameter is bound.
    func execute() throws {
        guard Int(bound) == parameterCount else {
            throw RecordStoreError.storage("\(bound) of the \(parameterCount) parameters of \(statement.sql) were bound")
        }
        try statement.execute()
    }
}

@_spi(StorageEngine) import RecordStoreCore
/// One statement for a SQL database: its text in the dialect's placeholder syntax, and the
/// arguments bound to the placeholders in order.
///
/// ```swift
/// let statement = SQLStatement(sql: "SELECT name FROM \"$zones\" WHERE name = ?", arguments: [.text("Archive")])
/// ```
package struct SQLStatement: Sendable, Hashable, CustomStringConvertible {
    /// The text, placeholders numbered for the dialect.
    package var sql: String
    /// The values bound to the placeholders.
    package var arguments: [SQLValue]

    /// Creates a statement.
    package init(sql: String, arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// A statement written with `?` markers, numbered for a dialect.
    package init(_ sql: String, _ arguments: [SQLValue] = [], dialect: any SQLDialect) {
        self.init(sql: dialect.numberPlaceholders(sql), arguments: arguments)
    }

    package var description: String {
        arguments.isEmpty ? sql : "\(sql) [\(arguments.map(\.description).joined(separator: ", "))]"
    }
}

@_spi(StorageEngine) import RecordStoreCore
/// One statement for a SQL database: its text in the dialect's placeholder syntax, and the
/// arguments bound to the placeholders in order.
///
/// ```swift
/// let statement = SQLStatement(sql: "SELECT name FROM \"$zones\" WHERE name = ?", arguments: [.text("Archive")])
/// ```
@_spi(StorageEngine) public struct SQLStatement: Sendable, Hashable, CustomStringConvertible {
    /// The text, placeholders numbered for the dialect.
    @_spi(StorageEngine) public var sql: String
    /// The values bound to the placeholders.
    @_spi(StorageEngine) public var arguments: [SQLValue]

    /// Creates a statement.
    @_spi(StorageEngine) public init(sql: String, arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// A statement written with `?` markers, numbered for a dialect.
    @_spi(StorageEngine) public init(_ sql: String, _ arguments: [SQLValue] = [], dialect: any SQLDialect) {
        self.init(sql: dialect.numberPlaceholders(sql), arguments: arguments)
    }

    /// The SQL, then its arguments in brackets when it has any, as logs and plans show it.
    @_spi(StorageEngine) public var description: String {
        arguments.isEmpty ? sql : "\(sql) [\(arguments.map(\.description).joined(separator: ", "))]"
    }
}

@_spi(StorageEngine) import RecordStoreCore
/// The SQL form of one part of a predicate: a condition every matching row meets
/// (nil: no restriction), its bound arguments in order, and whether it is exact (the
/// rows it keeps are exactly the matches) or only a superset that the residual checks.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `FieldCondition`,
/// `KeyPathCondition`, `AttributeCondition` and `QueryFilter`.
@_spi(StorageEngine) public struct SQLCondition: Sendable {
    @_spi(StorageEngine) public var sql: String?
    @_spi(StorageEngine) public var arguments: [SQLValue]
    @_spi(StorageEngine) public var isExact: Bool

    /// A condition with its arguments, exact or a superset.
    @_spi(StorageEngine) public init(sql: String?, arguments: [SQLValue], isExact: Bool) {
        self.sql = sql
        self.arguments = arguments
        self.isExact = isExact
    }

    /// A condition exactly equal to the predicate part.
    @_spi(StorageEngine) public static func exact(_ sql: String, _ arguments: [SQLValue] = []) -> SQLCondition {
        SQLCondition(sql: sql, arguments: arguments, isExact: true)
    }

    /// A condition that keeps every match and maybe more.
    @_spi(StorageEngine) public static func superset(_ sql: String, _ arguments: [SQLValue] = []) -> SQLCondition {
        SQLCondition(sql: sql, arguments: arguments, isExact: false)
    }

    /// No SQL for this part: the residual checks it on every row.
    @_spi(StorageEngine) public static let residualOnly = SQLCondition(sql: nil, arguments: [], isExact: false)

    /// Both conditions (exact when both are).
    @_spi(StorageEngine) public func and(_ other: SQLCondition) -> SQLCondition {
        switch (sql, other.sql) {
        case (nil, _): return SQLCondition(sql: other.sql, arguments: other.arguments, isExact: isExact && other.isExact)
        case (_, nil): return SQLCondition(sql: sql, arguments: arguments, isExact: isExact && other.isExact)
        case (let left?, let right?):
            return SQLCondition(sql: "\(left) AND \(right)", arguments: arguments + other.arguments, isExact: isExact && other.isExact)
        }
    }
}

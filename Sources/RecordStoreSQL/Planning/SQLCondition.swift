@_spi(StorageEngine) import RecordStoreCore
/// The SQL form of one part of a predicate: a condition every matching row meets
/// (nil: no restriction), its bound arguments in order, and whether it is exact (the
/// rows it keeps are exactly the matches) or only a superset that the residual checks.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `FieldCondition`,
/// `KeyPathCondition`, `AttributeCondition` and `QueryFilter`.
package struct SQLCondition: Sendable {
    package var sql: String?
    package var arguments: [SQLValue]
    package var isExact: Bool

    /// A condition with its arguments, exact or a superset.
    package init(sql: String?, arguments: [SQLValue], isExact: Bool) {
        self.sql = sql
        self.arguments = arguments
        self.isExact = isExact
    }

    /// A condition exactly equal to the predicate part.
    package static func exact(_ sql: String, _ arguments: [SQLValue] = []) -> SQLCondition {
        SQLCondition(sql: sql, arguments: arguments, isExact: true)
    }

    /// A condition that keeps every match and maybe more.
    package static func superset(_ sql: String, _ arguments: [SQLValue] = []) -> SQLCondition {
        SQLCondition(sql: sql, arguments: arguments, isExact: false)
    }

    /// No SQL for this part: the residual checks it on every row.
    package static let residualOnly = SQLCondition(sql: nil, arguments: [], isExact: false)

    /// Both conditions (exact when both are).
    package func and(_ other: SQLCondition) -> SQLCondition {
        switch (sql, other.sql) {
        case (nil, _): return SQLCondition(sql: other.sql, arguments: other.arguments, isExact: isExact && other.isExact)
        case (_, nil): return SQLCondition(sql: sql, arguments: arguments, isExact: isExact && other.isExact)
        case (let left?, let right?):
            return SQLCondition(sql: "\(left) AND \(right)", arguments: arguments + other.arguments, isExact: isExact && other.isExact)
        }
    }
}

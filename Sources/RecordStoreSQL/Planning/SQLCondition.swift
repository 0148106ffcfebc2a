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
    /// Whether evaluating the part may raise an evaluation error on a record's values, as Apple's
    /// evaluation raises (arithmetic on a missing value, `ANY` over a value that is not a
    /// collection). Such a part is the residual's, and in an `AND` so is every part after it: a
    /// record that an earlier part rejects is never evaluated further, and one that a later part
    /// rejects still raises, as `AND` evaluates its parts in order.
    @_spi(StorageEngine) public var mayRaise: Bool

    /// A condition with its arguments, exact or a superset.
    @_spi(StorageEngine) public init(sql: String?, arguments: [SQLValue], isExact: Bool, mayRaise: Bool = false) {
        self.sql = sql
        self.arguments = arguments
        self.isExact = isExact
        self.mayRaise = mayRaise
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

    /// No SQL for this part, which may raise an evaluation error: the residual evaluates it, in
    /// the predicate's order (``mayRaise``).
    @_spi(StorageEngine) public static let raising = SQLCondition(sql: nil, arguments: [], isExact: false, mayRaise: true)

    /// Both conditions, this one first (exact when both are). After a part that may raise, the
    /// other part adds no SQL: it is the residual's, evaluated after the raising part.
    @_spi(StorageEngine) public func and(_ other: SQLCondition) -> SQLCondition {
        let raises = mayRaise || other.mayRaise
        if mayRaise { return SQLCondition(sql: sql, arguments: arguments, isExact: false, mayRaise: true) }
        switch (sql, other.sql) {
        case (nil, _): return SQLCondition(sql: other.sql, arguments: other.arguments, isExact: isExact && other.isExact, mayRaise: raises)
        case (_, nil): return SQLCondition(sql: sql, arguments: arguments, isExact: isExact && other.isExact, mayRaise: raises)
        case (let left?, let right?):
            return SQLCondition(
                sql: "\(left) AND \(right)", arguments: arguments + other.arguments, isExact: isExact && other.isExact, mayRaise: raises)
        }
    }
}

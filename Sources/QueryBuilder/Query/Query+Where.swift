import Foundation
import PredicateLanguage
import RecordStore

extension Query {
    /// Adds a condition in the predicate format language, joined by `AND` with the conditions before it.
    /// Arguments fill `%@`, `%K`, `%d`, `%f`, ... as with `NSPredicate(format:)`.
    ///
    /// ```swift
    /// try Item.query(in: context).where("quantity == 1")
    /// try Item.query(in: context).where("quantity == %d", 1)
    /// try Item.query(in: context).where("name == %@", "Alice")
    /// try Item.query(in: context).where("%K == %@", "name", "Alice")
    /// try Item.query(in: context).where("quantity == 1").where("name == %@", "Alice")
    /// // quantity == 1 AND name == "Alice"
    /// ```
    public func `where`(_ format: String, _ arguments: (any FormatArgument)?...) throws -> Query {
        try `where`(FormatPredicate(format: format, argumentArray: Self.values(arguments)))
    }

    /// Adds a predicate, joined by `AND` with the conditions before it.
    ///
    /// ```swift
    /// try Item.query(in: context).where(FormatPredicate(format: "quantity > 1"))
    /// ```
    public func `where`(_ predicate: FormatPredicate) -> Query {
        var query = joined(and: predicate)
        query.insertionProblem = insertionProblem
            ?? "the condition '\(predicate.predicateFormat)' is a format string, not an equality from a dictionary or key path"
        return query
    }

    /// Makes everything before it one group, joined by `OR` with a condition in the predicate
    /// format language. Throws ``QueryError/orWithoutPrecedingCondition(recordType:)`` on a query
    /// without conditions.
    ///
    /// ```swift
    /// try Item.query(in: context).where("quantity == 1").or("name == %@", "Alice")
    /// // quantity == 1 OR name == "Alice"
    /// try Item.query(in: context).where("quantity == 1").where("name == %@", "Alice").or("name == %@", "Bob")
    /// // (quantity == 1 AND name == "Alice") OR name == "Bob"
    /// ```
    public func or(_ format: String, _ arguments: (any FormatArgument)?...) throws -> Query {
        try or(FormatPredicate(format: format, argumentArray: Self.values(arguments)))
    }

    /// Makes everything before it one group, joined by `OR` with a predicate.
    ///
    /// ```swift
    /// try Item.query(in: context).where("quantity == 1").or(FormatPredicate(format: "quantity == 2"))
    /// ```
    public func or(_ predicate: FormatPredicate) throws -> Query {
        try joined(or: predicate)
    }

    static func values(_ arguments: [(any FormatArgument)?]) -> [Value] {
        arguments.map { $0?.formatArgumentValue ?? .null }
    }
}

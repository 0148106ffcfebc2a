import Foundation
import PredicateLanguage
import RecordStore

extension Query where T: Queryable {
    /// Adds a Foundation predicate as a condition (joined by `AND`), converted into the predicate
    /// language (`FormatPredicate.init(_:)`) so that the store runs it, in SQL where it can.
    ///
    /// ```swift
    /// let apples = try Item.query(in: context).where(#Predicate<Item> { $0.name.starts(with: "A") && $0.quantity > 1 }).all()
    /// ```
    public func `where`(_ predicate: Predicate<T>) throws -> Query {
        var query = joined(and: try FormatPredicate(predicate))
        query.insertionProblem = insertionProblem ?? "a #Predicate condition does not give the values of a new model"
        return query
    }

    /// Joins everything so far with a Foundation predicate by `OR`.
    ///
    /// ```swift
    /// try Item.query(in: context).where([.quantity: 0]).or(#Predicate<Item> { $0.name == "Fig" })
    /// ```
    public func or(_ predicate: Predicate<T>) throws -> Query {
        try joined(or: try FormatPredicate(predicate))
    }

    /// Adds a sort level from a Foundation `SortDescriptor`: its key path (named by
    /// ``Queryable/attributeKeyPaths``) and its order. Strings sort by their code points
    /// (`String.StandardComparator.lexical`, the only string comparator Foundation has on Linux;
    /// on Apple platforms `.localizedStandard` and `.localized` sort as the store's
    /// `SortComparison.localizedStandard` and `SortComparison.localized`).
    ///
    /// ```swift
    /// try Item.query(in: context).order(by: SortDescriptor(\Item.quantity, order: .reverse)).all()
    /// ```
    public func order(by descriptor: SortDescriptor<T>) throws -> Query {
        guard let keyPath = descriptor.keyPath else {
            throw QueryError.unknownKeyPath(recordType: T.recordType, keyPath: "a sort descriptor without a key path")
        }
        return order(by: try T.fieldName(for: keyPath), descriptor.order == .forward ? .ascending : .descending, Self.comparison(of: descriptor))
    }

    /// The store's string comparison for a sort descriptor's.
    private static func comparison(of descriptor: SortDescriptor<T>) -> SortComparison {
        #if canImport(Darwin)
        switch descriptor.stringComparator {
        case String.StandardComparator.localizedStandard?: return .localizedStandard
        case String.StandardComparator.localized?: return .localized
        default: return .compare
        }
        #else
        return .compare
        #endif
    }
}

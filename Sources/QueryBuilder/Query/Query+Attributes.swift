import Foundation
import PredicateLanguage
import RecordStore

extension Query where T: Queryable {
    /// Adds the conditions of a dictionary keyed by attribute, joined by `AND` (in the order the
    /// `Attribute` cases are declared), and by `AND` with the conditions before them. A value is
    /// an equality, an array `IN`, a range, or a wrapper (`lt`, `lte`, `gt`, `gte`, `ne`).
    ///
    /// ```swift
    /// try Item.query(in: context).where([.quantity: 1])                // quantity == 1
    /// try Item.query(in: context).where([.name: "Alice"])              // name == "Alice"
    /// try Item.query(in: context).where([.quantity: lt(1)])            // quantity < 1
    /// try Item.query(in: context).where([.quantity: 1...3])            // quantity BETWEEN {1, 3}
    /// try Item.query(in: context).where([.quantity: 1..<3])            // quantity >= 1 AND quantity < 3
    /// try Item.query(in: context).where([.name: "A", .quantity: 2])    // name == "A" AND quantity == 2
    /// ```
    public func `where`(_ conditions: [T.Attribute: any AttributeCondition]) -> Query {
        let (clause, query) = dictionaryClause(conditions)
        guard let clause else { return query }
        return query.joined(and: clause)
    }

    /// Makes everything before it one group, joined by `OR` with the conditions of a dictionary
    /// (themselves joined by `AND`).
    ///
    /// ```swift
    /// try Item.query(in: context).where([.quantity: 1]).or([.quantity: 3])
    /// // quantity == 1 OR quantity == 3
    /// ```
    public func or(_ conditions: [T.Attribute: any AttributeCondition]) throws -> Query {
        let (clause, _) = dictionaryClause(conditions)
        return try joined(or: clause ?? .truePredicate)
    }

    /// Adds a condition on one attribute, joined by `AND`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(.name, .beginsWith("A"))
    /// try Item.query(in: context).where(.quantity, 1...3)
    /// ```
    public func `where`(_ attribute: T.Attribute, _ condition: FieldComparison) -> Query {
        `where`([attribute: condition])
    }

    /// Adds a condition on one attribute, joined by `AND`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(.quantity, 1..<3)
    /// ```
    public func `where`(_ attribute: T.Attribute, _ condition: some AttributeCondition) -> Query {
        `where`([attribute: condition])
    }

    /// Adds a condition on a key path's property, joined by `AND`: `\.quantity == 1`, `\.date < cutoff`.
    /// Throws ``QueryError/unknownKeyPath(recordType:keyPath:)`` when ``Queryable/attributeKeyPaths`` lacks it.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.quantity == 1).where(\.name != "Pear")
    /// ```
    public func `where`(_ condition: KeyPathCondition<T>) throws -> Query {
        let field = try T.fieldName(for: condition.keyPath)
        return fieldClause(field, condition.condition.fieldCondition(for: field))
    }

    /// Makes everything before it one group, joined by `OR` with a key path condition.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.quantity == 1).or(\.quantity == 3)
    /// ```
    public func or(_ condition: KeyPathCondition<T>) throws -> Query {
        let field = try T.fieldName(for: condition.keyPath)
        return try joined(or: condition.condition.fieldCondition(for: field).predicate)
    }

    /// Adds a condition on a key path's property, joined by `AND`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.name, .beginsWith("A"))
    /// ```
    public func `where`<Field>(_ keyPath: KeyPath<T, Field>, _ condition: FieldComparison) throws -> Query {
        let field = try T.fieldName(for: keyPath)
        return fieldClause(field, condition.fieldCondition(for: field))
    }

    /// Adds a condition on a key path's property, joined by `AND`: a value, an array, a range.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.quantity, 1...3)
    /// ```
    public func `where`<Field>(_ keyPath: KeyPath<T, Field>, _ condition: some AttributeCondition) throws -> Query {
        let field = try T.fieldName(for: keyPath)
        return fieldClause(field, condition.fieldCondition(for: field))
    }

    /// The clause of one field condition joined by `AND`, noted for `firstOrInsert()`.
    private func fieldClause(_ field: String, _ condition: FieldCondition) -> Query {
        var query = joined(and: condition.predicate)
        query.noteInsertion(field: field, condition)
        return query
    }

    /// The `AND` of a dictionary's conditions in attribute order (nil when empty), and the
    /// query with them noted for `firstOrInsert()`.
    private func dictionaryClause(_ conditions: [T.Attribute: any AttributeCondition]) -> (FormatPredicate?, Query) {
        var query = self
        var comparisons: [ComparisonPredicate] = []
        for attribute in T.Attribute.allCases {
            guard let value = conditions[attribute] else { continue }
            let field = T.fieldName(for: attribute)
            let condition = value.fieldCondition(for: field)
            query.noteInsertion(field: field, condition)
            comparisons += condition.comparisons
        }
        if comparisons.isEmpty { return (nil, query) }
        let clause: FormatPredicate = comparisons.count == 1
            ? .comparison(comparisons[0]) : .and(comparisons.map(FormatPredicate.comparison))
        return (clause, query)
    }
}

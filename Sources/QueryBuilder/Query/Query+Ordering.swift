import PredicateLanguage
import RecordStore

extension Query {
    /// Adds a sort level on a field (or metadata name such as `creationDate`); each call adds a
    /// level after the ones before it. Strings compare by code point unless a comparison such as
    /// `.localizedStandard` or `.localizedCaseInsensitive` is given.
    ///
    /// ```swift
    /// try Item.query(in: context).order(by: "department").order(by: "name")
    /// try Item.query(in: context).order(by: "quantity", .descending)
    /// try Item.query(in: context).order(by: "name", .ascending, .localizedCaseInsensitive)
    /// try Item.query(in: context).order(by: "name", .ascending, .localizedStandard)
    /// ```
    public func order(by key: String, _ direction: SortDirection = .ascending, _ comparison: SortComparison = .compare) -> Query {
        var query = self
        query.sorts.append(Sort(key, ascending: direction == .ascending, comparison: comparison))
        return query
    }
}

extension Query where T: Queryable {
    /// Adds a sort level on an attribute.
    ///
    /// ```swift
    /// try Item.query(in: context).order(by: .date).order(by: .name, .descending)
    /// ```
    public func order(by attribute: T.Attribute, _ direction: SortDirection = .ascending, _ comparison: SortComparison = .compare) -> Query {
        order(by: T.fieldName(for: attribute), direction, comparison)
    }

    /// Adds a sort level on a key path's property (named by ``Queryable/attributeKeyPaths``).
    ///
    /// ```swift
    /// try Item.query(in: context).order(by: \.date, .descending)
    /// ```
    public func order<Field>(by keyPath: KeyPath<T, Field>, _ direction: SortDirection = .ascending, _ comparison: SortComparison = .compare) throws -> Query {
        order(by: try T.fieldName(for: keyPath), direction, comparison)
    }
}

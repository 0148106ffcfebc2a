import RecordStore

extension Query {
    /// At most this many results. As Core Data's `fetchLimit` (and ``fetchRequest``'s), 0 means
    /// no limit.
    ///
    /// ```swift
    /// try Item.query(in: context).order(by: "date", .descending).limit(10).all()
    /// try Item.query(in: context).limit(0).count()   // every match: 0 is no limit
    /// ```
    public func limit(_ count: Int) throws -> Query {
        guard count >= 0 else { throw QueryError.invalidPaging("A limit must not be negative, but it is \(count)") }
        var query = self
        query.fetchLimit = count == 0 ? nil : count
        return query
    }

    /// Skips this many results first (after sorting).
    ///
    /// ```swift
    /// try Item.query(in: context).order(by: "name").offset(20).limit(10).all()   // the third page
    /// ```
    public func offset(_ count: Int) throws -> Query {
        guard count >= 0 else { throw QueryError.invalidPaging("An offset must not be negative, but it is \(count)") }
        var query = self
        query.fetchOffset = count
        return query
    }

    /// Fetches only these fields: the others are missing from the results (a model's optional
    /// properties decode as nil; a missing required property is a decoding error). Use it with
    /// ``records()-6mwsc``, or with models whose other properties are optional.
    ///
    /// ```swift
    /// try Item.query(in: context).select("name", "quantity").records()
    /// ```
    public func select(_ keys: String...) -> Query {
        select(keys)
    }

    /// Fetches only these fields.
    ///
    /// ```swift
    /// try Item.query(in: context).select(["name"]).records()
    /// ```
    public func select(_ keys: [String]) -> Query {
        var query = self
        query.selectedKeys = keys
        return query
    }

    /// Whether results include the context's pending (unsaved) changes; true unless turned off.
    ///
    /// ```swift
    /// try Item.query(in: context).includesPendingChanges(false).count()   // only what is saved
    /// ```
    public func includesPendingChanges(_ includes: Bool) -> Query {
        var query = self
        query.includesPendingChanges = includes
        return query
    }
}

extension Query where T: Queryable {
    /// Fetches only these attributes.
    ///
    /// ```swift
    /// try Item.query(in: context).select(.name, .quantity).records()
    /// ```
    public func select(_ attributes: T.Attribute...) -> Query {
        select(attributes.map(T.fieldName(for:)))
    }

    /// Fetches only the properties of these key paths.
    ///
    /// ```swift
    /// try Item.query(in: context).select(\.name, \.quantity).records()
    /// ```
    public func select(_ keyPaths: PartialKeyPath<T>...) throws -> Query {
        select(try keyPaths.map { try T.fieldName(for: $0) })
    }
}

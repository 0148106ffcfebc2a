import PredicateLanguage

extension Store {
    /// The records of a type in a zone that match a predicate, sorted, at most `limit` of them.
    ///
    /// ```swift
    /// let french = try store.records(
    ///     ofType: "City",
    ///     matching: FormatPredicate(format: "countrycode == 'FR' AND population > 500000"),
    ///     sorts: [Sort("population", ascending: false)],
    ///     limit: 10)
    /// ```
    public func records(
        ofType recordType: String, matching predicate: FormatPredicate, sorts: [Sort] = [],
        zone: ZoneID = .default, limit: Int? = nil
    ) throws(RecordStoreError) -> [Record] {
        try synchronously { try await self.records(ofType: recordType, matching: predicate, sorts: sorts, zone: zone, limit: limit) }
    }

    /// The records of a type in a zone that match a predicate, sorted, at most `limit` of them (async).
    ///
    /// ```swift
    /// let french = try await store.records(ofType: "City", matching: FormatPredicate(format: "countrycode == 'FR'"))
    /// ```
    public func records(
        ofType recordType: String, matching predicate: FormatPredicate, sorts: [Sort] = [],
        zone: ZoneID = .default, limit: Int? = nil
    ) async throws(RecordStoreError) -> [Record] {
        try await queryEngine.records(specification(recordType, predicate, sorts, zone, limit))
    }

    /// How many records of a type in a zone match a predicate.
    ///
    /// ```swift
    /// try store.count(ofType: "City", matching: FormatPredicate(format: "countrycode == 'FR'"))   // 470
    /// ```
    public func count(ofType recordType: String, matching predicate: FormatPredicate, zone: ZoneID = .default) throws(RecordStoreError) -> Int {
        try synchronously { try await self.count(ofType: recordType, matching: predicate, zone: zone) }
    }

    /// How many records of a type in a zone match a predicate (async).
    ///
    /// ```swift
    /// try await store.count(ofType: "City", matching: FormatPredicate(format: "countrycode == 'FR'"))   // 470
    /// ```
    public func count(ofType recordType: String, matching predicate: FormatPredicate, zone: ZoneID = .default) async throws(RecordStoreError) -> Int {
        try await queryEngine.count(specification(recordType, predicate, [], zone, nil))
    }

    /// How a query would run: its SQL, arguments, residual predicate and indexes.
    ///
    /// ```swift
    /// print(try store.explain(ofType: "City", matching: FormatPredicate(format: "name BEGINSWITH 'Par'")))
    /// ```
    public func explain(
        ofType recordType: String, matching predicate: FormatPredicate, sorts: [Sort] = [],
        zone: ZoneID = .default, limit: Int? = nil
    ) throws(RecordStoreError) -> QueryPlan {
        try synchronously { try await self.explain(ofType: recordType, matching: predicate, sorts: sorts, zone: zone, limit: limit) }
    }

    /// How a query would run (async).
    ///
    /// ```swift
    /// print(try await store.explain(ofType: "City", matching: FormatPredicate(format: "name BEGINSWITH 'Par'")))
    /// ```
    public func explain(
        ofType recordType: String, matching predicate: FormatPredicate, sorts: [Sort] = [],
        zone: ZoneID = .default, limit: Int? = nil
    ) async throws(RecordStoreError) -> QueryPlan {
        try await queryEngine.explain(specification(recordType, predicate, sorts, zone, limit))
    }

    /// Checks a query against the schema as running it does, without reading a record: the
    /// record type and the fields it names exist, its sorts can work, key paths through
    /// relationships lead somewhere (`employees.@count > 10` through an inverse to-many,
    /// `department.name` through a to-one), and in production mode each field has the index type
    /// the query needs (``IndexPolicy``). It accepts what running the query
    /// (``records(matching:inZone:desiredKeys:resultsLimit:cursorMode:costLimits:)``) accepts and
    /// refuses what running it refuses for the schema: the one check behind `query serve`'s
    /// `predicates/check` (the console's check as you type) and its production query subscriptions.
    ///
    /// ```swift
    /// let production = Store.inMemory(mode: .production)
    /// try production.define(RecordTypeSchema(name: "City", fields: [FieldSchema(name: "population", type: .int64, isSortable: false)]))
    /// try await production.check(RecordQuery(recordType: "City", predicate: FormatPredicate(format: "population > 1000")))
    /// // throws RecordStoreError.notSortable(field: "population", recordType: "City")
    /// ```
    public func check(_ query: RecordQuery) async throws(RecordStoreError) {
        try await queryEngine.check(checkedSpecification(query.recordType, query.predicate, query.sorts, .default, nil))
    }
}

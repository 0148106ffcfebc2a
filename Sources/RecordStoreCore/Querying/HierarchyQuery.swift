import PredicateLanguage

/// A query on a record type with subtypes (Core Data's entity inheritance), split into one
/// query per concrete type of the hierarchy.
///
/// Storage: each record type keeps its own table (saves, indexes and history are unchanged),
/// and a query on a parent type becomes one query per concrete type below it (its branches),
/// each with the parent's predicate, sorts and keyset position. How the engines read them:
/// the SQL engines select every branch in one `UNION ALL` statement ordered and limited as the
/// query asks (`HierarchyUnion`), so that a page reads its own rows only; the memory engine
/// tests every branch in one pass over the zone and sorts their matches together. When SQL
/// cannot order a branch, each branch runs on its own with `offset + limit` as its limit; the
/// pages arrive in ``RecordOrdering``'s order, which every engine gives, so ``merge(_:)`` of
/// their heads gives the whole order without sorting, and the offset and limit apply to the
/// merge. Counts add up; aggregates are computed over the matches (``Aggregation``). Records
/// keep their own record type and all their fields.
///
/// Why not one table per root type with an entity column (Core Data's SQLite layout): it would
/// change every save, index and migration of the store for the sake of one kind of query.
/// `query-bench inheritance` measures a parent type over three subtypes against the same
/// records in one record type.
///
/// `entity.name` (and `entity` compared with a name) is each branch's record type
/// (``EntityKeyPath``), decided before the engine sees the branch.
///
/// ```swift
/// if let hierarchy = try HierarchyQuery(specification, catalog: catalog) {
///     var pages: [[Record]] = []
///     for branch in hierarchy.branches { pages.append(try await records(branch)) }
///     return hierarchy.merge(pages)
/// }
/// ```
@_spi(StorageEngine) public struct HierarchyQuery: Sendable {
    /// The query on the parent type.
    @_spi(StorageEngine) public let specification: QuerySpecification
    /// One query per concrete record type, none of which has subtypes to read.
    @_spi(StorageEngine) public let branches: [QuerySpecification]

    /// The branches of a query, or nil when it reads its own type only and names no `entity`
    /// key path (the engine runs it as it is). Throws what validating the query on its own type
    /// throws (an unknown type, a field that type lacks), and
    /// ``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)`` for a sort through a
    /// relationship over several types (which the store then walks and sorts in Swift).
    @_spi(StorageEngine) public init?(_ specification: QuerySpecification, catalog: SchemaCatalog) throws(RecordStoreError) {
        guard Self.applies(to: specification, catalog: catalog) else { return nil }
        let types = catalog.concreteTypes(of: specification.recordType, includingSubtypes: specification.includesSubtypes)
        let namesEntity = EntityKeyPath.isNamed(in: specification.predicate, schema: catalog.recordTypes[specification.recordType])
        // The parent's own schema decides which fields the query may name.
        var own = specification
        own.predicate = EntityKeyPath.resolved(specification.predicate, recordType: specification.recordType)
        _ = try QueryValidation.check(own, catalog: catalog, allowsRelationshipWalks: true)
        self.specification = specification
        let merges = types.count > 1
        // The merge compares the records' own values: a sort through a relationship
        // (`team.title`) is sorted by the store, which walks it in Swift over the branches.
        if merges, let walked = specification.sorts.first(where: { $0.key.contains(".") }) {
            throw .relationshipWalkNotPlanned(String(walked.key.prefix { $0 != "." }), recordType: specification.recordType)
        }
        branches = types.map { type in
            var branch = specification
            branch.recordType = type
            branch.includesSubtypes = false
            if namesEntity, catalog.recordTypes[type]?.field(named: "entity") == nil {
                branch.predicate = EntityKeyPath.resolved(specification.predicate, recordType: type)
            }
            if merges {
                // Each branch gives every record the merge might keep; the merge skips the offset.
                branch.offset = 0
                if let limit = specification.limit {
                    let (wanted, overflow) = max(0, limit).addingReportingOverflow(max(0, specification.offset))
                    branch.limit = overflow ? nil : wanted
                }
            }
            return branch
        }
    }

    /// Whether a query reads other types than its own or names the `entity` key path: then it
    /// runs as a ``HierarchyQuery`` (whose creation may still throw), not as one query on its type.
    ///
    /// ```swift
    /// HierarchyQuery.applies(to: specification, catalog: catalog)   // true for a query on "Person"
    /// ```
    @_spi(StorageEngine) public static func applies(to specification: QuerySpecification, catalog: SchemaCatalog) -> Bool {
        let types = catalog.concreteTypes(of: specification.recordType, includingSubtypes: specification.includesSubtypes)
        return types != [specification.recordType]
            || EntityKeyPath.isNamed(in: specification.predicate, schema: catalog.recordTypes[specification.recordType])
    }

    /// The branch that answers for the query when an engine names the record type: the errors
    /// of a branch name the queried type (``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)``
    /// is what a store walks in Swift for the queried type).
    @_spi(StorageEngine) public func renamed(_ error: RecordStoreError) -> RecordStoreError {
        if case .relationshipWalkNotPlanned(let relationship, let type) = error, branches.contains(where: { $0.recordType == type }) {
            return .relationshipWalkNotPlanned(relationship, recordType: specification.recordType)
        }
        return error
    }

    /// The branches' pages (each in ``RecordOrdering``'s order, one per branch in order) merged
    /// into the query's page: the offset skipped, at most the limit kept.
    ///
    /// ```swift
    /// hierarchy.merge([employees, managers])
    /// ```
    @_spi(StorageEngine) public func merge(_ pages: [[Record]]) -> [Record] {
        guard pages.count > 1 else { return pages.first ?? [] }
        let ordering = RecordOrdering(sorts: specification.sorts)
        let skip = max(0, specification.offset)
        let wanted = specification.limit.map { max(0, $0) }
        var positions = Array(repeating: 0, count: pages.count)
        var merged: [Record] = []
        let total = pages.reduce(0) { $0 + $1.count }
        merged.reserveCapacity(min(total, wanted ?? total))
        var skipped = 0
        while wanted.map({ merged.count < $0 }) ?? true {
            var best: Int?
            for index in pages.indices where positions[index] < pages[index].count {
                if let current = best, !ordering.precedes(pages[index][positions[index]], pages[current][positions[current]]) { continue }
                best = index
            }
            guard let best else { break }
            let record = pages[best][positions[best]]
            positions[best] += 1
            if skipped < skip {
                skipped += 1
            } else {
                merged.append(record)
            }
        }
        return merged
    }

    /// How many records the query selects, from each branch's count.
    @_spi(StorageEngine) public func count(_ counts: [Int]) -> Int {
        counts.reduce(0, +)
    }
}

import PredicateLanguage

extension Store {
    /// Runs a fetch request and reads the records its
    /// ``FetchRequest/relationshipKeyPathsForPrefetching`` reach, one read per relationship and
    /// level (not one per record), as Core Data's prefetching does.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Employee", predicate: try FormatPredicate(format: "salary > 100000"))
    /// request.relationshipKeyPathsForPrefetching = ["department"]
    /// let fetched = try store.fetchPrefetched(request)
    /// let names = fetched.records.map { fetched.related.record(through: "department", of: $0)?["name"] ?? nil }
    /// ```
    public func fetchPrefetched(_ request: FetchRequest) throws(RecordStoreError) -> PrefetchedRecords {
        try synchronously { try await self.fetchPrefetched(request) }
    }

    /// Runs a fetch request and reads the records its prefetched relationships reach (async);
    /// see the synchronous form.
    ///
    /// ```swift
    /// let fetched = try await store.fetchPrefetched(request)
    /// ```
    public func fetchPrefetched(_ request: FetchRequest) async throws(RecordStoreError) -> PrefetchedRecords {
        var plain = request
        plain.resultType = .records
        let records = try await fetch(plain).records
        let related = try await relatedRecords(
            of: records, prefetching: request.relationshipKeyPathsForPrefetching, recordType: request.entityName)
        return PrefetchedRecords(records: records, related: related)
    }

    /// Reads the records that relationships of some records reach: for each key path
    /// (`department`, `department.manager`, `employees`), one read per relationship and level for
    /// all the records. The records may be of several types; each key path is checked against
    /// the types of the records (a name that is no relationship of a type that has records here
    /// is an error, with suggestions).
    ///
    /// ```swift
    /// let orders = try store.records(ofType: "Order", matching: .truePredicate)
    /// let related = try store.relatedRecords(of: orders, prefetching: ["customer"])
    /// related.record(through: "customer", of: orders[0])?["name"]   // .string("Alice")
    /// ```
    public func relatedRecords(of records: [Record], prefetching keyPaths: [String]) throws(RecordStoreError) -> RelatedRecords {
        try synchronously { try await self.relatedRecords(of: records, prefetching: keyPaths) }
    }

    /// Reads the records that relationships of some records reach (async); see the synchronous form.
    ///
    /// ```swift
    /// let related = try await store.relatedRecords(of: orders, prefetching: ["customer", "items.product"])
    /// ```
    public func relatedRecords(of records: [Record], prefetching keyPaths: [String]) async throws(RecordStoreError) -> RelatedRecords {
        try await relatedRecords(of: records, prefetching: keyPaths, recordType: nil)
    }

    /// The related records; `recordType` is the type the key paths are checked against even
    /// when there are no records (a fetch's entity).
    private func relatedRecords(of records: [Record], prefetching keyPaths: [String], recordType: String?) async throws(RecordStoreError) -> RelatedRecords {
        let catalog = try await engine.catalog()
        var types = Set(records.map(\.recordType))
        if let recordType { types.insert(recordType) }
        var walk = RelationshipWalk()
        for keyPath in keyPaths {
            try PrefetchWalk.add(keyPath, to: &walk, from: types.sorted(), catalog: catalog)
        }
        let graph = try await RelatedRecordGraph.read(
            for: records, walk: walk, catalog: catalog, from: EngineRelatedRecords(engine: engine, catalog: catalog))
        return RelatedRecords(graph: graph)
    }
}

/// Makes the ``RelationshipWalk`` of prefetched key paths: every component a relationship
/// whose records are read.
enum PrefetchWalk {
    /// Adds a key path (`department.manager`) to a walk, checking each component against the
    /// types the records at that level can have (unknown past a reference that names no destination).
    static func add(_ keyPath: String, to walk: inout RelationshipWalk, from recordTypes: [String], catalog: SchemaCatalog) throws(RecordStoreError) {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let relationships = catalog.walkableRelationships
        var types: [String]? = recordTypes
        var path: [String] = []
        for name in components {
            if let known = types {
                var destinations: [String] = []
                var anyUnknown = false
                for type in known {
                    guard let schema = catalog.recordTypes[type] else { continue }
                    guard let relationship = relationships[type]?[name] else {
                        try RelationshipWalkAnalyzer.checkKnown(name, in: schema)
                        throw .notARelationship(field: name, recordType: type, keyPath: keyPath)
                    }
                    if relationship.destination.isEmpty { anyUnknown = true } else { destinations.append(relationship.destination) }
                }
                types = anyUnknown ? nil : destinations
            }
            path.append(name)
            mark(path, in: &walk.root)
        }
    }

    /// Marks the steps of a path as reading their records.
    private static func mark(_ path: [String], in step: inout RelationshipWalk.Step) {
        guard let first = path.first else { return }
        var child = step.children[first] ?? RelationshipWalk.Step()
        child.readsRecords = true
        mark(Array(path.dropFirst()), in: &child)
        step.children[first] = child
    }
}

import PredicateLanguage

/// A query that walks relationships, split for an engine that does not walk them itself: the
/// part the engine runs (``candidates``: the conjuncts and sorts that walk nothing, every match),
/// and the part run on its answers after ``RelatedRecordGraph`` reads what the walk reaches
/// (``walkingPredicate``, rewritten by ``RelationshipWalkAnalyzer``), then sorted and paged in
/// Swift (``RecordOrdering``) with the walked sort keys' values.
///
/// ```swift
/// if let query = try RelationshipQuery(specification, catalog: catalog) {
///     let page = try await query.records(on: engine)
/// }
/// ```
@_spi(StorageEngine) public struct RelationshipQuery: Sendable {
    /// The query as asked.
    @_spi(StorageEngine) public let specification: QuerySpecification
    /// What the engine runs: every record matching the conjuncts that walk nothing.
    @_spi(StorageEngine) public let candidates: QuerySpecification
    /// The conjuncts that walk relationships, as written.
    @_spi(StorageEngine) public let walkingConjuncts: [FormatPredicate]
    /// The same conjuncts, read through the walk's keys.
    let walkingPredicate: FormatPredicate
    /// The keys (sorts, groups, aggregates) that walk relationships, and their rewritten paths.
    let walkedKeys: [(key: String, path: String)]
    /// What the walk reaches.
    @_spi(StorageEngine) public let walk: RelationshipWalk
    let catalog: SchemaCatalog

    /// Whether a predicate may walk a relationship on its face (a dotted key path, a member of
    /// an expression, a `SUBQUERY`): the test that costs nothing before the catalog is read.
    @_spi(StorageEngine) public static func mayWalk(_ predicate: FormatPredicate, keys: [String] = []) -> Bool {
        keys.contains { $0.contains(".") }
            || predicate.containsExpression { expression in
                switch expression {
                case .keyPath(let path): path.contains(".")
                case .member, .subquery: true
                default: false
                }
            }
    }

    /// The split query, or nil when it walks nothing. `keys` are further keys the caller reads
    /// from each match (group-by and aggregate keys).
    @_spi(StorageEngine) public init?(
        _ specification: QuerySpecification, catalog: SchemaCatalog, keys: [String] = []
    ) throws(RecordStoreError) {
        guard catalog.recordTypes[specification.recordType] != nil else { return nil }
        var analyzer = RelationshipWalkAnalyzer(catalog: catalog, recordType: specification.recordType)
        let parts: [FormatPredicate]
        if case .and(let conjuncts) = specification.predicate { parts = conjuncts } else { parts = [specification.predicate] }
        var flat: [FormatPredicate] = []
        var walking: [FormatPredicate] = []
        var rewrittenWalking: [FormatPredicate] = []
        for part in parts {
            let uses = analyzer.relationshipUses
            let rewritten = try analyzer.rewrite(part)
            if analyzer.relationshipUses == uses {
                flat.append(part)
            } else {
                walking.append(part)
                rewrittenWalking.append(rewritten)
            }
        }
        var walkedKeys: [(key: String, path: String)] = []
        var flatSorts: [Sort] = []
        for sort in specification.sorts {
            let uses = analyzer.relationshipUses
            let path = try analyzer.rewrite(key: sort.key)
            if analyzer.relationshipUses == uses { flatSorts.append(sort) } else { walkedKeys.append((sort.key, path)) }
        }
        for key in keys where !specification.sorts.contains(where: { $0.key == key }) {
            let uses = analyzer.relationshipUses
            let path = try analyzer.rewrite(key: key)
            if analyzer.relationshipUses != uses { walkedKeys.append((key, path)) }
        }
        guard !analyzer.walk.isEmpty else { return nil }
        var candidates = specification.allMatches
        candidates.predicate = flat.isEmpty ? .truePredicate : flat.count == 1 ? flat[0] : .and(flat)
        candidates.sorts = flatSorts
        self.specification = specification
        self.candidates = candidates
        self.walkingConjuncts = walking
        self.walkingPredicate = rewrittenWalking.isEmpty ? .truePredicate : rewrittenWalking.count == 1 ? rewrittenWalking[0] : .and(rewrittenWalking)
        self.walkedKeys = walkedKeys
        self.walk = analyzer.walk
        self.catalog = catalog
    }

    /// Every match, with the walked keys' values set as fields named by the keys
    /// (`department.name`), so that ``RecordOrdering`` and ``Aggregation`` read them as any
    /// field; and the matches as stored, by identifier.
    @_spi(StorageEngine) public func matches(on engine: any StorageEngine) async throws(RecordStoreError) -> (projected: [Record], stored: [RecordID: Record]) {
        try await matches(among: try await engine.records(candidates), from: EngineRelatedRecords(engine: engine, catalog: catalog))
    }

    /// The matches among candidates (records that meet ``candidates``' predicate), their related
    /// records read from `source`; as ``matches(on:)`` answers.
    func matches(
        among candidates: [Record], from source: some RelatedRecordSource
    ) async throws(RecordStoreError) -> (projected: [Record], stored: [RecordID: Record]) {
        let graph = try await RelatedRecordGraph.read(for: candidates, walk: walk, catalog: catalog, from: source)
        let searchable = catalog.recordTypes[specification.recordType]?.searchableFieldNames ?? []
        var projected: [Record] = []
        var stored: [RecordID: Record] = [:]
        do {
            let options = specification.costLimits.evaluationOptions()
            let compiled = try CompiledPredicate(walkingPredicate, options: options, layout: RecordObject.self)
            // `entity.name` is each record's own type (``EntityKeyPath``): decided per type.
            let namesEntity = EntityKeyPath.isNamed(in: walkingPredicate, schema: catalog.recordTypes[specification.recordType])
            var byType: [String: CompiledPredicate] = [:]
            let keys = try walkedKeys.map { try (key: $0.key, expression: CompiledExpression(.keyPath($0.path))) }
            for record in candidates {
                let object = RecordObject(record: record, searchableFields: searchable, relatedValues: graph.relatedValues(of: record, step: walk.root))
                var predicate = compiled
                if namesEntity {
                    if let known = byType[record.recordType] {
                        predicate = known
                    } else {
                        predicate = try CompiledPredicate(
                            EntityKeyPath.resolved(walkingPredicate, recordType: record.recordType), options: options, layout: RecordObject.self)
                        byType[record.recordType] = predicate
                    }
                }
                guard try predicate.evaluate(object) else { continue }
                stored[record.recordID] = record
                var copy = record
                for (key, expression) in keys { copy.fields[key] = try expression.value(for: object) }
                projected.append(copy)
            }
        } catch {
            throw RecordStoreError(evaluating: error)
        }
        return (projected, stored)
    }

    /// The page the query asks for: its matches sorted, after its keyset position or offset, at most its limit.
    @_spi(StorageEngine) public func records(on engine: any StorageEngine) async throws(RecordStoreError) -> [Record] {
        let (projected, stored) = try await matches(on: engine)
        return RecordOrdering(sorts: specification.sorts)
            .page(of: projected, after: specification.after, offset: specification.offset, limit: specification.limit)
            .compactMap { stored[$0.recordID] }
    }

    /// How the engine runs the candidates' query, and what is done after it.
    @_spi(StorageEngine) public func explain(on engine: any StorageEngine) async throws(RecordStoreError) -> QueryPlan {
        var plan = try await engine.explain(candidates)
        let walked = walkingConjuncts.map(\.predicateFormat).joined(separator: " AND ")
        plan.residual = [plan.residual, walked.isEmpty ? nil : walked].compactMap { $0 }.joined(separator: " AND ")
        plan.queryPlanDetails.append("then read the related records (\(Self.describe(walk.root)))")
        if !walkedKeys.isEmpty {
            plan.queryPlanDetails.append("then sort or group in Swift by \(walkedKeys.map(\.key).joined(separator: ", "))")
        }
        return plan
    }

    /// The walk as a list: `department (records) → manager (records)`.
    private static func describe(_ step: RelationshipWalk.Step) -> String {
        step.children.keys.sorted().map { name -> String in
            guard let child = step.children[name] else { return name }
            let what = child.readsRecords ? "records" : "references"
            let deeper = child.children.isEmpty ? "" : " → " + describe(child)
            return "\(name): \(what)\(deeper)"
        }.joined(separator: "; ")
    }
}

import PredicateLanguage

extension Store {
    /// Which of some records match a predicate, the records their relationships reach read from
    /// the store with `overlay` laid over it: how a context tests its unsaved models against a
    /// predicate that walks relationships (`customer.name == "Alice"`), reading a pending customer
    /// in place of the stored one, as Core Data evaluates the objects of its context. The records
    /// need not be stored; they keep their order. Their full text (`self CONTAINS "word"`) is the
    /// fields that will be searchable once they are saved: the type's searchable fields, and the
    /// string fields it does not have yet that its just-in-time indexes make searchable. A record
    /// type the store does not know yet has no relationships to walk: a key path through one of
    /// its fields reads nil, as through any field that is no relationship.
    ///
    /// ```swift
    /// let alice = Record(recordType: "Customer", recordID: RecordID(recordName: "alice"), fields: ["name": "Alice"])
    /// let order = Record(recordType: "Order", recordID: RecordID(recordName: "o1"), fields: ["customer": .reference(Reference(recordName: "alice"))])
    /// let matches = try store.records([order], matching: FormatPredicate(format: "customer.name == 'Alice'"),
    ///                                 overlaying: RecordOverlay(saved: [alice, order]))
    /// // [order], before either record is saved
    /// ```
    public func records(_ records: [Record], matching predicate: FormatPredicate, overlaying overlay: RecordOverlay) throws(RecordStoreError) -> [Record] {
        try synchronously { try await self.records(records, matching: predicate, overlaying: overlay) }
    }

    /// Which of some records match a predicate, relationships read through an overlay (async);
    /// see the synchronous form.
    ///
    /// ```swift
    /// let matches = try await store.records(pending, matching: predicate, overlaying: overlay)
    /// ```
    public func records(_ records: [Record], matching predicate: FormatPredicate, overlaying overlay: RecordOverlay) async throws(RecordStoreError) -> [Record] {
        guard !records.isEmpty else { return [] }
        // Only a walk and `SELF` (full text) read the schema: a predicate of plain fields is
        // decided without reading the catalog, which is a round trip on a server engine.
        let mayWalk = RelationshipQuery.mayWalk(predicate)
        let readsSchema = mayWalk || predicate.containsExpression { if case .evaluatedObject = $0 { true } else { false } }
        let catalog = readsSchema ? try await engine.catalog() : SchemaCatalog()
        let source = OverlaidRelatedRecords(base: EngineRelatedRecords(engine: engine, catalog: catalog), overlay: overlay)
        var matched = Set<RecordID>()
        let groups = Dictionary(grouping: records) { RecordGroup(recordType: $0.recordType, zone: $0.recordID.zoneID) }
        for (group, members) in groups {
            let specification = QuerySpecification(recordType: group.recordType, predicate: predicate, zone: group.zone)
            let schema = catalog.recordTypes[group.recordType]
            guard mayWalk, let query = try RelationshipQuery(specification, catalog: catalog) else {
                matched.formUnion(try Self.evaluated(members, predicate, schema: schema))
                continue
            }
            let candidates = try Self.evaluated(members, query.candidates.predicate, schema: schema)
            let walked = try await query.matches(among: members.filter { candidates.contains($0.recordID) }, from: source)
            matched.formUnion(walked.stored.keys)
        }
        return records.filter { matched.contains($0.recordID) }
    }

    /// The records of one type and zone: what one walk reads for.
    private struct RecordGroup: Hashable {
        var recordType: String
        var zone: ZoneID
    }

    /// The identifiers of the records a predicate that walks nothing holds for, each record's full
    /// text read from the fields that will be searchable once it is saved (``searchableFields(of:schema:)``).
    private static func evaluated(_ records: [Record], _ predicate: FormatPredicate, schema: RecordTypeSchema?) throws(RecordStoreError) -> Set<RecordID> {
        do {
            let compiled = try CompiledPredicate(predicate, layout: RecordObject.self)
            var matched = Set<RecordID>()
            for record in records where try compiled.evaluate(RecordObject(record: record, searchableFields: searchableFields(of: record, schema: schema))) {
                matched.insert(record.recordID)
            }
            return matched
        } catch {
            throw RecordStoreError(evaluating: error)
        }
    }

    /// The fields whose strings `self CONTAINS "…"` reads in a record that may not be saved yet,
    /// as they will be once it is: the record type's searchable fields, and each string field the
    /// type does not have yet that its just-in-time indexes (``IndexPolicy``; ``IndexPolicy/automatic``
    /// for a type the store does not know) make searchable.
    static func searchableFields(of record: Record, schema: RecordTypeSchema?) -> [String] {
        var names = schema?.searchableFieldNames ?? []
        let policy = schema?.justInTimeIndexes ?? .automatic
        for (name, value) in record.fields where value.stringValue != nil && schema?.field(named: name) == nil {
            if policy.field(named: name, type: .string).isSearchable { names.append(name) }
        }
        return names
    }
}

import PredicateLanguage

/// The records a ``RelationshipWalk`` reaches from some records, read level by level (one
/// lookup and one query per inverse relationship at each level, not one per record), and the
/// values the evaluator reads them through (``relatedValues(of:step:)``).
///
/// What a relationship reaches, as Core Data reads it:
/// - a to-one: the referenced record, or nil when the field is nil, the record does not exist
///   (a dangling reference), is in another zone (CloudKit keeps references within a zone, and the
///   SQL engines seek the record's own zone) or, when the relationship declares a destination,
///   has another type;
/// - a reference list: the referenced records of the zone that exist, in the list's order;
/// - an inverse to-many: the destination's records in the same zone whose inverse field
///   references the record, by record name.
///
/// ```swift
/// let graph = try await RelatedRecordGraph.read(for: candidates, walk: walk, catalog: catalog, from: source)
/// let object = RecordObject(record: employee, searchableFields: [], relatedValues: graph.relatedValues(of: employee, step: walk.root))
/// ```
@_spi(StorageEngine) public struct RelatedRecordGraph: Sendable {
    /// An inverse relationship's records pointing at one record.
    private struct InverseKey: Hashable {
        var recordType: String
        var field: String
        var target: RecordID
    }

    /// An inverse query: the records of a type in a zone through a field.
    private struct InverseQuery: Hashable {
        var recordType: String
        var field: String
        var zone: ZoneID
    }

    /// A record reached at a level of the walk.
    private struct Visit: Hashable {
        var path: [String]
        var id: RecordID
    }

    /// The catalog's walkable relationships by type and name, looked up once per record and step.
    private let relationships: [String: [String: RelationshipSchema]]
    private var records: [RecordID: Record] = [:]
    private var referencing: [InverseKey: [RecordID]] = [:]

    /// The catalog, for the record types below a relationship's destination (which it holds too).
    private let catalog: SchemaCatalog

    private init(catalog: SchemaCatalog) {
        relationships = catalog.walkableRelationships
        self.catalog = catalog
    }

    /// The relationship (or reference field) `name` of a record's type.
    private func relationship(_ name: String, of record: Record) -> RelationshipSchema? {
        relationships[record.recordType]?[name]
    }

    /// Reads what the walk reaches from `roots`.
    @_spi(StorageEngine) public static func read(
        for roots: [Record], walk: RelationshipWalk, catalog: SchemaCatalog, from source: some RelatedRecordSource
    ) async throws(RecordStoreError) -> RelatedRecordGraph {
        var graph = RelatedRecordGraph(catalog: catalog)
        var frontier: [(record: Record, step: RelationshipWalk.Step, path: [String])] = roots.map { ($0, walk.root, []) }
        // A record is read on at each level of the walk once, however many records reach it.
        var visited = Set<Visit>()
        while !frontier.isEmpty {
            var wanted = Set<RecordID>()
            var inverses: [InverseQuery: Set<RecordID>] = [:]
            for (record, step, _) in frontier {
                for (name, child) in step.children {
                    guard let relationship = graph.relationship(name, of: record) else { continue }
                    switch relationship.kind {
                    case .toOne, .referenceList:
                        guard child.readsRecords else { continue }
                        for id in ReferenceLookup.referencedIDs(record.fields[name])
                        where id.zoneID == record.recordID.zoneID && graph.records[id] == nil {
                            wanted.insert(id)
                        }
                    case .toMany(let inverse):
                        guard child.readsRecords || child.listsReferences else { continue }
                        let key = InverseKey(recordType: relationship.destination, field: inverse, target: record.recordID)
                        if graph.referencing[key] == nil {
                            inverses[InverseQuery(recordType: relationship.destination, field: inverse, zone: record.recordID.zoneID), default: []]
                                .insert(record.recordID)
                        }
                    }
                }
            }
            if !wanted.isEmpty {
                let found = try await source.records(for: wanted.sorted { $0.recordName < $1.recordName })
                graph.records.merge(found) { old, _ in old }
            }
            for (query, targets) in inverses.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                for target in targets { graph.referencing[InverseKey(recordType: query.recordType, field: query.field, target: target)] = [] }
                let found = try await source.records(
                    ofType: query.recordType, in: query.zone, through: query.field,
                    referencingAnyOf: targets.sorted { $0.recordName < $1.recordName })
                for record in found {
                    graph.records[record.recordID] = graph.records[record.recordID] ?? record
                    for target in ReferenceLookup.referencedIDs(record.fields[query.field]) where targets.contains(target) {
                        graph.referencing[InverseKey(recordType: query.recordType, field: query.field, target: target), default: []]
                            .append(record.recordID)
                    }
                }
            }
            // The next level: the records reached through steps that go on.
            var next: [(record: Record, step: RelationshipWalk.Step, path: [String])] = []
            for (record, step, path) in frontier {
                for (name, child) in step.children where child.readsRecords && !child.children.isEmpty {
                    for reached in graph.reached(from: record, through: name)
                    where visited.insert(Visit(path: path + [name], id: reached.recordID)).inserted {
                        next.append((reached, child, path + [name]))
                    }
                }
            }
            frontier = next
        }
        return graph
    }

    /// Every record read, by identifier.
    @_spi(StorageEngine) public var recordsByID: [RecordID: Record] { records }

    /// The records a relationship of a record reaches (see the type's description); empty when
    /// the walk did not read it.
    @_spi(StorageEngine) public func records(reachedFrom record: Record, through name: String) -> [Record] {
        reached(from: record, through: name)
    }

    /// The records a relationship of a record reaches (see the type's description).
    private func reached(from record: Record, through name: String) -> [Record] {
        guard let relationship = relationship(name, of: record) else { return [] }
        switch relationship.kind {
        case .toOne, .referenceList:
            return ReferenceLookup.referencedIDs(record.fields[name]).compactMap { id in
                guard id.zoneID == record.recordID.zoneID, let found = records[id] else { return nil }
                let destination = relationship.destination
                return destination.isEmpty || found.recordType == destination || catalog.isType(found.recordType, kindOf: destination) ? found : nil
            }
        case .toMany(let inverse):
            let key = InverseKey(recordType: relationship.destination, field: inverse, target: record.recordID)
            return (referencing[key] ?? []).compactMap { records[$0] }
                .sorted { SortComparison.compareBytes($0.recordID.recordName, $1.recordID.recordName) == .orderedAscending }
        }
    }

    /// The values a record's walked relationships read as, under the walk's keys: a to-one's
    /// record as an object (or nil), a to-many's records as a list of objects, and an inverse
    /// to-many listed as references under its own name. Each object holds the record's fields,
    /// its metadata and, in turn, its own walked relationships.
    @_spi(StorageEngine) public func relatedValues(of record: Record, step: RelationshipWalk.Step) -> [String: Value] {
        var values: [String: Value] = [:]
        for (name, child) in step.children {
            guard let relationship = relationship(name, of: record) else { continue }
            let reached = reached(from: record, through: name)
            if child.readsRecords {
                let objects = reached.map { object(of: $0, step: child) }
                values[RelationshipWalk.resolvedKey(name)] = relationship.kind == .toOne ? (objects.first ?? .null) : .list(objects)
            }
            if child.listsReferences, case .toMany = relationship.kind {
                values[name] = .list(reached.map { .reference($0.recordID.reference) })
            }
        }
        return values
    }

    /// A record as the evaluator reads it at a level of the walk.
    private func object(of record: Record, step: RelationshipWalk.Step) -> Value {
        var fields = record.fields
        for metadata in MetadataField.allCases { fields[metadata.rawValue] = record.metadataValue(metadata) }
        fields.merge(relatedValues(of: record, step: step)) { _, related in related }
        return .object(fields)
    }
}

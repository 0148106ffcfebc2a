import PredicateLanguage

/// Where ``RelatedRecordGraph`` reads the records a walk reaches: by identifier (to-ones and
/// reference lists) and by the references that point at them (inverse to-manys).
///
/// Every engine is one through ``EngineRelatedRecords``, which asks the engine's own lookups
/// and queries.
@_spi(StorageEngine) public protocol RelatedRecordSource: Sendable {
    /// The stored records with these identifiers (missing ones absent).
    func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record]
    /// The records of a type in a zone whose reference (or reference list) field references
    /// any of the targets.
    func records(
        ofType recordType: String, in zone: ZoneID, through field: String, referencingAnyOf targets: [RecordID]
    ) async throws(RecordStoreError) -> [Record]
}

/// The related records of an engine, read through its lookups and queries: an inverse is the
/// query `field IN {references}` (or `ANY field IN {references}` for a reference list), which
/// the reference field's index serves.
///
/// ```swift
/// let graph = try await RelatedRecordGraph.read(for: matches, walk: walk, catalog: catalog, from: EngineRelatedRecords(engine: engine))
/// ```
@_spi(StorageEngine) public struct EngineRelatedRecords: RelatedRecordSource {
    let engine: any StorageEngine
    let catalog: SchemaCatalog

    /// The related records of an engine whose catalog is `catalog`.
    @_spi(StorageEngine) public init(engine: any StorageEngine, catalog: SchemaCatalog) {
        self.engine = engine
        self.catalog = catalog
    }

    @_spi(StorageEngine) public func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] {
        try await engine.records(for: ids)
    }

    @_spi(StorageEngine) public func records(
        ofType recordType: String, in zone: ZoneID, through field: String, referencingAnyOf targets: [RecordID]
    ) async throws(RecordStoreError) -> [Record] {
        guard let fieldType = catalog.recordTypes[recordType]?.field(named: field)?.type else { return [] }
        var found: [Record] = []
        // The records of the type and of every type below it (a destination with subtypes).
        for holder in catalog.concreteTypes(of: recordType, includingSubtypes: true) {
            let lookup = ReferenceLookup(recordType: holder, zone: zone, field: field, isList: fieldType.isList, targets: targets)
            for specification in lookup.specifications {
                found += try await engine.records(specification)
            }
        }
        return found
    }
}

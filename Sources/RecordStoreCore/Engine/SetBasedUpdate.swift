import Foundation
import PredicateLanguage

/// A batch update that an engine may run as a few statements over the matching rows, without
/// reading the records: ``Store/updateRecords(matching:set:author:)`` asks the engine first
/// (``StorageEngine/updateRecords(_:)``), and takes the general way (read the matches, save
/// them) when the engine answers nil.
///
/// The engine builds one with ``init(_:catalog:)`` inside its write transaction. It is nil,
/// and the engine answers nil, whenever writing the same values into every row could differ
/// from saving each record with them:
/// - the type has sub-entities the query includes (their rows are in other tables);
/// - a value changes the schema (a new field in development mode), or is refused (the general
///   way then reports the error as a save does);
/// - a field set is a reference (assets are references), a list, a relationship, the parent or
///   a system field: deletion rules, inverse counts, list members and assets are the save's to keep;
/// - a field set is in a uniqueness constraint (conflicts are resolved record by record, by
///   the merge policy);
/// - a value breaks its field's validation rules (the save then lists the failure of every
///   record, as it always does).
///
/// Validation rules of the fields not set are not checked again: the stored records passed
/// them when they were saved, and the update does not change those fields.
///
/// Being eligible here is necessary, not sufficient: the engine decides the rest, since only it
/// plans the query, and may still answer nil (SQLite does when its plan leaves a residual that
/// Swift would have to decide, or when the type has no table yet).
///
/// ```swift
/// if let update = SetBasedUpdate(request, catalog: catalog) {
///     update.values          // the values as admitted: numbers in their field's type, nulls dropped
///     update.changedFields   // ["timezone"]
/// }
/// ```
@_spi(StorageEngine) public struct SetBasedUpdate: Sendable {
    /// What the store asks of the engine.
    @_spi(StorageEngine) public struct Request: Sendable {
        /// The records to update: a query without sorts, offset or limit.
        @_spi(StorageEngine) public var query: QuerySpecification
        /// The fields to set; `.null` removes a field.
        @_spi(StorageEngine) public var values: [String: Value]
        /// The last modifier the updated records get.
        @_spi(StorageEngine) public var author: String?
        /// The schema limits of the store's writes.
        @_spi(StorageEngine) public var schemaLimits: SchemaLimits

        @_spi(StorageEngine) public init(query: QuerySpecification, values: [String: Value], author: String?, schemaLimits: SchemaLimits = .unlimited) {
            self.query = query
            self.values = values
            self.author = author
            self.schemaLimits = schemaLimits
        }
    }

    /// The request.
    @_spi(StorageEngine) public let request: Request
    /// The record type's schema.
    @_spi(StorageEngine) public let schema: RecordTypeSchema
    /// A record holding the values as every updated record gets them (admitted by the catalog,
    /// nulls dropped), with the modification date and last modifier of the update.
    @_spi(StorageEngine) public let values: Record
    /// The fields the update sets or removes.
    @_spi(StorageEngine) public let changedFields: Set<String>

    /// The update of a request under a catalog, or nil when it must take the general way.
    @_spi(StorageEngine) public init?(_ request: Request, catalog: SchemaCatalog) {
        let query = request.query
        guard query.sorts.isEmpty, query.offset == 0, query.limit == nil, query.after == nil,
              let schema = catalog.recordTypes[query.recordType], !schema.isAbstract,
              !query.includesSubtypes || !catalog.recordTypes.values.contains(where: { $0.parentType == schema.name }),
              !request.values.isEmpty
        else { return nil }
        let relationships = Set(schema.relationships.map(\.name))
        let constrained = Set(schema.uniquenessConstraints.joined())
        for name in request.values.keys {
            guard let field = schema.field(named: name), !relationships.contains(name), !constrained.contains(name),
                  name != Record.parentFieldName, name != DeleteSelfReferences.fieldName
            else { return nil }
            switch field.type {
            case .reference, .list: return nil
            default: continue
            }
        }
        var admitted = [Record(recordType: schema.name, recordID: RecordID(recordName: "batch-update", zoneID: query.zone), fields: request.values)]
        var admittingCatalog = catalog
        guard let changes = try? admittingCatalog.admit(&admitted, mode: query.mode, limits: request.schemaLimits), changes.isEmpty else { return nil }
        var values = admitted[0]
        values.modificationDate = Date()
        values.lastModifiedUserRecordName = request.author
        let failures = RecordValidation.failures(of: values, schema: schema)
        guard !failures.contains(where: { request.values.keys.contains($0.key) }) else { return nil }
        self.request = request
        self.schema = schema
        self.values = values
        changedFields = Set(request.values.keys)
    }

    /// What the update committed, for the change history and live queries: each record updated,
    /// in the order given (their new versions are read by the observers that need them).
    @_spi(StorageEngine) public func committedChanges(updating recordNames: [String]) -> CommittedChanges {
        let zone = request.query.zone
        return CommittedChanges(sequence: 0, entries: recordNames.map { name in
            CommittedChanges.Entry(kind: .updated, recordID: RecordID(recordName: name, zoneID: zone), recordType: schema.name)
        })
    }
}

import PredicateLanguage

/// Whether a record belongs to a query's matches, decided in Swift by the evaluator (which
/// answers as every engine does): its record type, its zone, and the predicate, with the record
/// type's searchable fields for `self CONTAINS` and full-text conditions.
///
/// Live queries test changed records with it; the server's query subscriptions test the records
/// of each commit.
///
/// ```swift
/// let matcher = try RecordMatcher(recordType: "City", predicate: predicate, zone: .default, searchableFields: [])
/// try matcher.matches(paris)   // true
/// ```
package struct RecordMatcher: Sendable {
    /// What a matcher decides by: matchers of equal keys give the same answers.
    package struct Key: Hashable, Sendable {
        package let recordType: String
        package let zone: ZoneID
        package let predicate: FormatPredicate
        package let searchableFields: [String]
        package let recordTypes: [String]
        package let resolvesEntity: Bool
    }

    package let recordType: String
    package let zone: ZoneID
    /// The record types whose records may match: the queried type and those below it
    /// (``SchemaCatalog/concreteTypes(of:includingSubtypes:)``), or the queried type alone.
    package let recordTypes: [String]
    private let predicate: CompiledPredicate
    /// With `entity.name` in the predicate (``EntityKeyPath``): the predicate decided for each type.
    private let predicateByType: [String: CompiledPredicate]
    private let searchableFields: [String]
    /// The matcher's key (observers of one condition share their evaluations by it).
    package let key: Key

    /// A matcher of records of `recordTypes` (the queried type alone when nil); with
    /// `resolvesEntity`, the `entity` key path is each record's type.
    package init(
        recordType: String, predicate: FormatPredicate, zone: ZoneID, searchableFields: [String], recordTypes: [String]? = nil,
        resolvesEntity: Bool = false
    ) throws(RecordStoreError) {
        self.recordType = recordType
        self.zone = zone
        self.searchableFields = searchableFields
        self.recordTypes = recordTypes ?? [recordType]
        key = Key(
            recordType: recordType, zone: zone, predicate: predicate, searchableFields: searchableFields, recordTypes: self.recordTypes,
            resolvesEntity: resolvesEntity)
        do {
            self.predicate = try CompiledPredicate(predicate, layout: RecordObject.self)
            var byType: [String: CompiledPredicate] = [:]
            if resolvesEntity {
                for type in self.recordTypes {
                    byType[type] = try CompiledPredicate(EntityKeyPath.resolved(predicate, recordType: type), layout: RecordObject.self)
                }
            }
            predicateByType = byType
        } catch {
            throw .predicate(error)
        }
    }

    /// Whether a change of a commit is to a record of the matched types in the zone.
    package func touches(_ entry: CommittedChanges.Entry) -> Bool {
        recordTypes.contains { entry.touches(recordType: $0, zone: zone) }
    }

    /// Whether the record (a version of it) matches.
    package func matches(_ record: Record) throws(RecordStoreError) -> Bool {
        guard record.recordID.zoneID == zone, recordTypes.contains(record.recordType) else { return false }
        do {
            let predicate = predicateByType[record.recordType] ?? self.predicate
            return try predicate.evaluate(RecordObject(record: record, searchableFields: searchableFields))
        } catch {
            throw .predicate(error)
        }
    }
}

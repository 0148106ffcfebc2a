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
    }

    package let recordType: String
    package let zone: ZoneID
    private let predicate: CompiledPredicate
    private let searchableFields: [String]
    /// The matcher's key (observers of one condition share their evaluations by it).
    package let key: Key

    package init(recordType: String, predicate: FormatPredicate, zone: ZoneID, searchableFields: [String]) throws(RecordStoreError) {
        self.recordType = recordType
        self.zone = zone
        self.searchableFields = searchableFields
        key = Key(recordType: recordType, zone: zone, predicate: predicate, searchableFields: searchableFields)
        do {
            self.predicate = try CompiledPredicate(predicate, layout: RecordObject.self)
        } catch {
            throw .predicate(error)
        }
    }

    /// Whether the record (a version of it) matches.
    package func matches(_ record: Record) throws(RecordStoreError) -> Bool {
        guard record.recordType == recordType, record.recordID.zoneID == zone else { return false }
        do {
            return try predicate.evaluate(RecordObject(record: record, searchableFields: searchableFields))
        } catch {
            throw .predicate(error)
        }
    }
}

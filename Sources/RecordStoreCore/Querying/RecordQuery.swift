import Foundation
import PredicateLanguage

/// A query for records of one type: `CKQuery`'s counterpart. The record type and the
/// predicate are fixed at creation; the sorts can change.
///
/// Which is which: a `RecordQuery` is CloudKit's query, run in batches with cursors;
/// ``FetchRequest`` is Core Data's (limit, offset, result types, aggregates); both become a
/// package-internal `QuerySpecification` on their way to an engine.
///
/// The predicate is checked against a rule profile when the query is created: `.full`
/// (the default) accepts the whole language, `.cloudKit` rejects what CloudKit rejects.
///
/// ```swift
/// var query = try RecordQuery(recordType: "City", predicate: FormatPredicate(format: "countrycode == 'FR'"))
/// query.sorts = [Sort("population", ascending: false)]
/// let strict = try RecordQuery(recordType: "City", predicate: somePredicate, rules: .cloudKit)
/// ```
public struct RecordQuery: Sendable, Hashable, CustomStringConvertible {
    /// The record type searched.
    public let recordType: String
    /// The condition records must meet.
    public let predicate: FormatPredicate
    /// The sort keys, most significant first; the record name breaks remaining ties.
    public var sorts: [Sort]

    /// Creates a query; throws when the record type is empty or invalid, or the predicate breaks the rules.
    ///
    /// ```swift
    /// let query = try RecordQuery(recordType: "City", predicate: .truePredicate, sorts: [Sort("name")])
    /// ```
    public init(recordType: String, predicate: FormatPredicate, sorts: [Sort] = [], rules: PredicateRules = .full) throws(RecordStoreError) {
        guard !recordType.isEmpty else { throw .invalidQuery("the record type is empty") }
        try Identifier.checkRecordType(recordType)
        try PredicateNesting.check(predicate)
        do {
            try rules.validate(predicate)
        } catch let error as FormatPredicateError {
            throw .predicate(error)
        } catch {
            throw .invalidQuery(String(describing: error))
        }
        self.recordType = recordType
        self.predicate = predicate
        self.sorts = sorts
    }

    /// A query built from checked parts (a cursor's embedded query).
    package init(checkedRecordType recordType: String, predicate: FormatPredicate, sorts: [Sort]) {
        self.recordType = recordType
        self.predicate = predicate
        self.sorts = sorts
    }

    /// `City WHERE countrycode == "FR" SORT BY population DESC`.
    public var description: String {
        var text = "\(recordType) WHERE \(predicate.predicateFormat)"
        if !sorts.isEmpty { text += " SORT BY " + sorts.map(\.description).joined(separator: ", ") }
        return text
    }

    /// A digest of the record type, the canonical predicate and the sorts: what a cursor is bound to.
    package var fingerprint: [UInt8] {
        var text = recordType + "\u{0}" + predicate.predicateFormat
        for sort in sorts { text += "\u{0}" + sort.description }
        return Array(SHA256Digest.hash(Array(text.utf8)).prefix(16))
    }
}

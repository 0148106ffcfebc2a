import PredicateLanguage

/// A record as the evaluator sees it: fields and metadata by name, and the searchable
/// string fields as its full text.
///
/// Its field layout lets a predicate compiled with `layout: RecordObject.self` decide once,
/// per key, whether the key names metadata or a field, instead of on every record.
package struct RecordObject: FieldLayoutReadable {
    /// The record.
    package let record: Record
    /// The fields whose strings feed `self CONTAINS "…"`.
    package let searchableFields: [String]

    /// A record, with the fields full-text search reads.
    package init(record: Record, searchableFields: [String]) {
        self.record = record
        self.searchableFields = searchableFields
    }

    package func value(forKey key: String) -> Value {
        record.value(named: key)
    }

    package func fullTextValues() -> [String] {
        searchableFields.compactMap { record.fields[$0]?.stringValue }
    }

    /// A metadata name reads that metadata; any other key reads the field (`.null` when
    /// missing), as ``Record/value(named:)`` does.
    package static func fieldReader(forKey key: String) -> FieldReader<RecordObject>? {
        if let metadata = MetadataField(rawValue: key) {
            return FieldReader { $0.record.metadataValue(metadata) }
        }
        return FieldReader { $0.record.fields[key] ?? .null }
    }
}

import PredicateLanguage

/// A record as the evaluator sees it: fields and metadata by name, and the searchable
/// string fields as its full text.
struct RecordObject: KeyValueReadable {
    /// The record.
    let record: Record
    /// The fields whose strings feed `self CONTAINS "…"`.
    let searchableFields: [String]

    func value(forKey key: String) -> Value {
        record.value(named: key)
    }

    func fullTextValues() -> [String] {
        searchableFields.compactMap { record.fields[$0]?.stringValue }
    }
}

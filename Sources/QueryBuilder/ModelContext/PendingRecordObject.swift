import PredicateLanguage
import RecordStore

/// A pending record as the evaluator sees it, to test it against a query's predicate:
/// fields and metadata by name, and its string fields as full text.
struct PendingRecordObject: KeyValueReadable {
    let record: Record

    func value(forKey key: String) -> Value {
        record.value(named: key)
    }

    func fullTextValues() -> [String] {
        record.fields.keys.sorted().compactMap { record.fields[$0]?.stringValue }
    }
}

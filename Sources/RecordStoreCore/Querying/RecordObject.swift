import PredicateLanguage

/// A record as the evaluator sees it: fields and metadata by name, and the searchable
/// string fields as its full text.
///
/// Its field layout lets a predicate compiled with `layout: RecordObject.self` decide once,
/// per key, whether the key names metadata or a field, instead of on every record.
@_spi(StorageEngine) public struct RecordObject: FieldLayoutReadable {
    /// The record.
    @_spi(StorageEngine) public let record: Record
    /// The fields whose strings feed `self CONTAINS "…"`.
    @_spi(StorageEngine) public let searchableFields: [String]

    /// A record, with the fields full-text search reads.
    @_spi(StorageEngine) public init(record: Record, searchableFields: [String]) {
        self.record = record
        self.searchableFields = searchableFields
    }

    @_spi(StorageEngine) public func value(forKey key: String) -> Value {
        record.value(named: key)
    }

    @_spi(StorageEngine) public func fullTextValues() -> [String] {
        searchableFields.compactMap { record.fields[$0]?.stringValue }
    }

    /// A metadata name reads that metadata; any other key reads the field (`.null` when
    /// missing), as ``Record/value(named:)`` does.
    @_spi(StorageEngine) public static func fieldReader(forKey key: String) -> FieldReader<RecordObject>? {
        if let metadata = MetadataField(rawValue: key) {
            return FieldReader { $0.record.metadataValue(metadata) }
        }
        return FieldReader { $0.record.fields[key] ?? .null }
    }
}

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

    /// What the record's walked relationships read as, under the keys of a
    /// ``RelationshipWalk`` (`department#`, an inverse to-many's own name); empty when the
    /// predicate walks nothing.
    @_spi(StorageEngine) public let relatedValues: [String: Value]

    /// A record, with the fields full-text search reads and the values its walked relationships read as.
    @_spi(StorageEngine) public init(record: Record, searchableFields: [String], relatedValues: [String: Value] = [:]) {
        self.record = record
        self.searchableFields = searchableFields
        self.relatedValues = relatedValues
    }

    @_spi(StorageEngine) public func value(forKey key: String) -> Value {
        let value = record.value(named: key)
        if value.isNull, !relatedValues.isEmpty { return relatedValues[key] ?? .null }
        return value
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
        if RelationshipWalk.isResolvedKey(key) { return FieldReader { $0.relatedValues[key] ?? .null } }
        return FieldReader { object in
            if let value = object.record.fields[key] { return value }
            return object.relatedValues.isEmpty ? .null : object.relatedValues[key] ?? .null
        }
    }
}

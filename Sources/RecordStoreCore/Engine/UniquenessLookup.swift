import PredicateLanguage

/// The records of one type in one zone whose constrained fields hold any of some value tuples:
/// what a save reads to find the stored records its records conflict with
/// (``RecordWriteTransaction/records(matching:)-(UniquenessLookup)``, ``ConstraintResolution``).
///
/// An engine answers it either in Swift (``filter(_:)`` over the records of the zone) or with
/// queries (``specifications``: `(a == %@ AND b == %@) OR ...`, in batches, which the
/// constraint's index serves).
///
/// ```swift
/// let lookup = UniquenessLookup(recordType: "Employee", zone: .default, fields: ["email"], keys: [["ada@example.com"]])
/// for specification in lookup.specifications { found += try await engine.records(specification) }
/// ```
@_spi(StorageEngine) public struct UniquenessLookup: Sendable, Hashable {
    /// The most value tuples one query of ``specifications`` lists.
    @_spi(StorageEngine) public static let batchSize = 200

    /// The type of the records looked for.
    @_spi(StorageEngine) public var recordType: String
    /// Their zone.
    @_spi(StorageEngine) public var zone: ZoneID
    /// The constrained fields.
    @_spi(StorageEngine) public var fields: [String]
    /// The value tuples looked for, each one value per field (none null).
    @_spi(StorageEngine) public var keys: [[Value]]

    /// A lookup.
    @_spi(StorageEngine) public init(recordType: String, zone: ZoneID, fields: [String], keys: [[Value]]) {
        self.recordType = recordType
        self.zone = zone
        self.fields = fields
        self.keys = keys
    }

    /// The queries that answer the lookup together, one per batch of keys.
    @_spi(StorageEngine) public var specifications: [QuerySpecification] {
        stride(from: 0, to: keys.count, by: Self.batchSize).map { start in
            let batch = keys[start..<min(start + Self.batchSize, keys.count)]
            let alternatives: [FormatPredicate] = batch.map { key in
                .and(zip(fields, key).map { field, value in .comparison(ComparisonPredicate(.keyPath(field), .equalTo, .constant(value))) })
            }
            return QuerySpecification(recordType: recordType, predicate: .or(alternatives), zone: zone)
        }
    }

    /// The records among these that the lookup finds: of its type and zone, holding one of its keys.
    @_spi(StorageEngine) public func filter(_ records: some Sequence<Record>) -> [Record] {
        let wanted = Set(keys)
        return records.filter { record in
            guard record.recordType == recordType, record.recordID.zoneID == zone, let key = Self.key(of: record, fields: fields) else { return false }
            return wanted.contains(key)
        }
    }

    /// The values a record holds in these fields, or nil when any is empty (the record takes no
    /// part in the constraint).
    ///
    /// ```swift
    /// UniquenessLookup.key(of: ada, fields: ["first", "last"])   // ["Ada", "Lovelace"]
    /// ```
    @_spi(StorageEngine) public static func key(of record: Record, fields: [String]) -> [Value]? {
        var key: [Value] = []
        for field in fields {
            guard let value = record.fields[field], !value.isNull else { return nil }
            key.append(value)
        }
        return key
    }
}

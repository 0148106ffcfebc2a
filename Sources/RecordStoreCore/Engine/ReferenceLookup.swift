import PredicateLanguage

/// The records of one type in one zone whose reference field (`REFERENCE` or
/// `LIST<REFERENCE>`) references any of some records: the inverse of a relationship, which a
/// save reads to apply deletion rules (``RecordWriteTransaction/records(matching:)``) and a walk
/// reads to reach an inverse to-many.
///
/// An engine answers it either in Swift (``filter(_:)`` over the records of the zone)
/// or with queries (``specifications``: `field IN {references}`, or `ANY field IN {references}`
/// for a reference list, in batches, which the reference field's index or list table serves).
///
/// ```swift
/// let lookup = ReferenceLookup(recordType: "Employee", zone: .default, field: "department", isList: false,
///                              targets: [RecordID(recordName: "d1")])
/// for specification in lookup.specifications { found += try await engine.records(specification) }
/// ```
@_spi(StorageEngine) public struct ReferenceLookup: Sendable, Hashable {
    /// The most references one query of ``specifications`` lists.
    @_spi(StorageEngine) public static let batchSize = 500

    /// The type of the records looked for.
    @_spi(StorageEngine) public var recordType: String
    /// Their zone.
    @_spi(StorageEngine) public var zone: ZoneID
    /// The field that references the targets.
    @_spi(StorageEngine) public var field: String
    /// Whether the field is a `LIST<REFERENCE>` (otherwise a `REFERENCE`).
    @_spi(StorageEngine) public var isList: Bool
    /// The referenced records.
    @_spi(StorageEngine) public var targets: [RecordID]

    /// A lookup.
    @_spi(StorageEngine) public init(recordType: String, zone: ZoneID, field: String, isList: Bool, targets: [RecordID]) {
        self.recordType = recordType
        self.zone = zone
        self.field = field
        self.isList = isList
        self.targets = targets
    }

    /// The queries that answer the lookup together (one per batch of targets), each
    /// `field IN %@` or `ANY field IN %@` with a list of references.
    @_spi(StorageEngine) public var specifications: [QuerySpecification] {
        stride(from: 0, to: targets.count, by: Self.batchSize).map { start in
            let batch = targets[start..<min(start + Self.batchSize, targets.count)]
            let references = Value.list(batch.map { .reference($0.reference) })
            let comparison = ComparisonPredicate(.keyPath(field), .in, .constant(references), modifier: isList ? .any : .direct)
            var specification = QuerySpecification(recordType: recordType, predicate: .comparison(comparison), zone: zone)
            // Records of this type only, as ``filter(_:)`` finds them: each subtype is looked up on its own.
            specification.includesSubtypes = false
            return specification
        }
    }

    /// The records among these that the lookup finds: of its type and zone, whose field references a target.
    @_spi(StorageEngine) public func filter(_ records: some Sequence<Record>) -> [Record] {
        let wanted = Set(targets)
        return records.filter { record in
            record.recordType == recordType && record.recordID.zoneID == zone
                && Self.referencedIDs(record.fields[field]).contains { wanted.contains($0) }
        }
    }

    /// The records a reference or reference list holds, in order.
    ///
    /// ```swift
    /// ReferenceLookup.referencedIDs(.reference(Reference(recordName: "d1")))   // [d1]
    /// ```
    @_spi(StorageEngine) public static func referencedIDs(_ value: Value?) -> [RecordID] {
        switch value {
        case .reference(let reference)?:
            return [RecordID(recordName: reference.recordName, zoneID: ZoneID(zoneName: reference.zoneName))]
        case .list(let members)?:
            return members.compactMap { member in
                guard case .reference(let reference) = member else { return nil }
                return RecordID(recordName: reference.recordName, zoneID: ZoneID(zoneName: reference.zoneName))
            }
        default:
            return []
        }
    }
}

import PredicateLanguage

/// The records that some records' relationships reach, read together (prefetched): what
/// `Store.relatedRecords(of:prefetching:)` and `Store.fetchPrefetched(_:)` return.
///
/// Each relationship of the prefetched key paths was read once per level for all the records,
/// as Core Data's `relationshipKeyPathsForPrefetching` fills its faults: a lookup of the
/// referenced records for to-ones and reference lists, one query through the inverse reference's
/// index for an inverse to-many. What a relationship reaches follows the walks of predicates:
/// nil, dangling, other-zone and wrong-type references reach nothing; an inverse to-many reaches
/// the destination's records of the zone that reference the record, in record-name order.
///
/// ```swift
/// let employees = try store.fetch(FetchRequest(entityName: "Employee")).records
/// let related = try store.relatedRecords(of: employees, prefetching: ["department", "department.manager"])
/// let department = related.record(through: "department", of: employees[0])
/// let manager = department.flatMap { related.record(through: "manager", of: $0) }
/// ```
public struct RelatedRecords: Sendable {
    let graph: RelatedRecordGraph

    /// The records a relationship of a record reaches: one or none for a to-one, the list's
    /// records in order for a reference list, the referencing records for an inverse to-many.
    /// Empty when the relationship was not prefetched for the record.
    ///
    /// ```swift
    /// related.records(through: "employees", of: salesDepartment).count   // 12
    /// ```
    public func records(through relationship: String, of record: Record) -> [Record] {
        graph.records(reachedFrom: record, through: relationship)
    }

    /// The record a to-one relationship of a record reaches, or nil (no reference, a dangling
    /// one, or not prefetched).
    ///
    /// ```swift
    /// related.record(through: "department", of: employee)?["name"]   // .string("Sales")
    /// ```
    public func record(through relationship: String, of record: Record) -> Record? {
        records(through: relationship, of: record).first
    }

    /// Every record read, by identifier.
    ///
    /// ```swift
    /// related.recordsByID.count   // 3
    /// ```
    public var recordsByID: [RecordID: Record] { graph.recordsByID }
}

/// The matches of a fetch request and the records its prefetched relationships reach: what
/// `Store.fetchPrefetched(_:)` returns.
///
/// ```swift
/// var request = FetchRequest(entityName: "Employee")
/// request.relationshipKeyPathsForPrefetching = ["department"]
/// let fetched = try store.fetchPrefetched(request)
/// for employee in fetched.records {
///     print(fetched.related.record(through: "department", of: employee)?["name"] ?? nil)
/// }
/// ```
public struct PrefetchedRecords: Sendable {
    /// The matches, as ``Store/fetch(_:)-ucfn`` returns them.
    public var records: [Record]
    /// The records their prefetched relationships reach.
    public var related: RelatedRecords
}

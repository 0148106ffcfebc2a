/// What a batch delete or a batch update did (Core Data's `NSBatchDeleteResult` and
/// `NSBatchUpdateResult`): the records it deleted or updated, so either result type Core Data
/// offers is at hand, the count (`.resultTypeCount`, `.updatedObjectsCountResultType`) and the
/// identifiers (`.resultTypeObjectIDs`, `.updatedObjectIDsResultType`).
///
/// ```swift
/// let result = try store.deleteRecords(ofType: "City", matching: FormatPredicate(format: "population < 1000"))
/// print(result.count)            // 1203
/// print(result.recordIDs.first)  // Optional(RecordID(recordName: "2657896"))
/// ```
public struct BatchResult: Sendable, Hashable {
    /// The records the request matched and deleted or updated, in the request's order (its
    /// sorts, then record names). Records that a deletion rule deleted too (a cascade) are not
    /// listed: they are in the change history, as every deletion is.
    public var recordIDs: [RecordID]

    /// Creates a result.
    public init(recordIDs: [RecordID]) {
        self.recordIDs = recordIDs
    }

    /// How many records the request deleted or updated.
    public var count: Int { recordIDs.count }
}

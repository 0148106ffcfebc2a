/// What changed in a zone since a ``ChangeToken`` (``Store/changes(in:since:limit:desiredKeys:recordTypes:)``):
/// the records saved since, each once in its latest state, the records deleted since, the
/// token to continue from, and whether more changes wait (`moreComing`: ask again with `token`).
///
/// ```swift
/// var changes = try store.changes(in: notes, since: savedToken, limit: 100)
/// apply(changes.changedRecords, deleting: changes.deletedRecords.map(\.recordID))
/// while changes.moreComing {
///     changes = try store.changes(in: notes, since: changes.token, limit: 100)
///     apply(changes.changedRecords, deleting: changes.deletedRecords.map(\.recordID))
/// }
/// savedToken = changes.token
/// ```
public struct ZoneChanges: Sendable, Hashable {
    /// How many changes a call returns when no limit is given (CloudKit's `resultsLimit` default).
    public static let defaultLimit = 200

    /// The zone the changes are of.
    public var zone: ZoneID
    /// The records created or updated since the token, each once, in their latest state, in
    /// the order they last changed.
    public var changedRecords: [Record]
    /// The records deleted since the token (a record created and deleted since it is here too).
    public var deletedRecords: [DeletedRecord]
    /// Where the next call continues.
    public var token: ChangeToken
    /// Whether more changes wait after these: call again with ``token``.
    public var moreComing: Bool

    /// A set of changes (the store makes them; tests and adapters may too).
    ///
    /// ```swift
    /// ZoneChanges(zone: .default, changedRecords: [], deletedRecords: [], token: token, moreComing: false)
    /// ```
    public init(zone: ZoneID, changedRecords: [Record], deletedRecords: [DeletedRecord], token: ChangeToken, moreComing: Bool) {
        self.zone = zone
        self.changedRecords = changedRecords
        self.deletedRecords = deletedRecords
        self.token = token
        self.moreComing = moreComing
    }
}

/// A record deleted since a change token: its identifier and the type it had.
///
/// ```swift
/// DeletedRecord(recordID: RecordID(recordName: "note-1"), recordType: "Note")
/// ```
public struct DeletedRecord: Sendable, Hashable, CustomStringConvertible {
    public var recordID: RecordID
    /// The record's type when it was deleted.
    public var recordType: String

    /// A deleted record.
    ///
    /// ```swift
    /// DeletedRecord(recordID: RecordID(recordName: "note-1"), recordType: "Note")
    /// ```
    public init(recordID: RecordID, recordType: String) {
        self.recordID = recordID
        self.recordType = recordType
    }

    public var description: String { "\(recordType) \(recordID.recordName) (deleted)" }
}

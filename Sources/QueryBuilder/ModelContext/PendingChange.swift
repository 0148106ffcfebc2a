import RecordStore

/// One change a ``ModelContext`` holds until `save()`.
enum PendingChange: Sendable, Equatable {
    /// A new record, saved over whatever is stored under its name (an upsert, as SwiftData's
    /// unique attributes: `SavePolicy.allKeys`).
    case insert(Record)
    /// A changed record, carrying the change tag of the version the context last read.
    case update(Record)
    /// A record to delete; `changeTag` is the version the context last read, when it read one.
    case delete(RecordID, recordType: String, changeTag: String?)

    var recordType: String {
        switch self {
        case .insert(let record), .update(let record): record.recordType
        case .delete(_, let recordType, _): recordType
        }
    }

    /// The record the change saves, or nil for a delete.
    var savedRecord: Record? {
        switch self {
        case .insert(let record), .update(let record): record
        case .delete: nil
        }
    }
}

/// The pending changes of a context, in the order they were first made.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `RecordChangeSet`,
/// `ModifyBatch` and `CommittedChanges`.
struct PendingChangeSet: Sendable {
    private(set) var order: [RecordID] = []
    private(set) var changes: [RecordID: PendingChange] = [:]

    var isEmpty: Bool { changes.isEmpty }

    subscript(id: RecordID) -> PendingChange? {
        get { changes[id] }
        set {
            if let newValue {
                if changes[id] == nil { order.append(id) }
                changes[id] = newValue
            } else if changes.removeValue(forKey: id) != nil {
                order.removeAll { $0 == id }
            }
        }
    }

    /// The changes in order.
    var ordered: [(RecordID, PendingChange)] {
        order.compactMap { id in changes[id].map { (id, $0) } }
    }

    /// The changes to records of one type in one zone.
    func changes(ofType recordType: String, zone: ZoneID) -> [(RecordID, PendingChange)] {
        ordered.filter { $0.0.zoneID == zone && $0.1.recordType == recordType }
    }
}

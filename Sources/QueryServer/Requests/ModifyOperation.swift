// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore

/// One operation of a `records/modify` request, checked: what it is and the record it names.
///
/// | operationType | needs | does |
/// |---|---|---|
/// | `create` | `recordType` | saves a new record; `EXISTS` when one is stored; a missing `recordName` is generated |
/// | `update` | `recordChangeTag` | sets the given fields of the stored record (`null` clears one), with their references' actions |
/// | `forceUpdate` | | the same, whatever the stored change tag |
/// | `replace` | `recordChangeTag`, `recordType` | replaces the stored record: omitted fields become null |
/// | `forceReplace` | `recordType` | the same, whatever the stored change tag; creates the record when none is stored |
/// | `delete` | `recordChangeTag` | deletes the stored record while its change tag is the one given |
/// | `forceDelete` | | deletes the record, stored or not |
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `QueryOperation`,
/// `QueryBatch`, `QueryPage` and `QueryAnswer`.
struct ModifyOperation {
    enum Kind: String, CaseIterable {
        case create, update, forceUpdate, replace, forceReplace, delete, forceDelete

        var isDeletion: Bool { self == .delete || self == .forceDelete }
        /// Whether the operation starts from the stored record.
        var readsStoredRecord: Bool { self != .create && self != .forceDelete }
    }

    let kind: Kind
    let id: RecordID
    let recordType: String?
    let changeTag: String?
    let fields: [String: Value]
    /// The fields whose references carry `DELETE_SELF` (``ReferenceAction``).
    let deleteSelfFields: Set<String>
    let desiredKeys: Set<String>?
    /// The record's parent as sent (`parent`, in the record's zone): nil when not sent (a save
    /// keeps the stored one), `.some(nil)` to clear it.
    let parent: RecordID??
    /// The share's members, for a `cloudkit.share` record (``ShareRequest``).
    let share: ShareRequest?

    /// Checks one decoded operation of `operations` against what its type needs, in a zone of
    /// a namespace (whose zone names its references take, ``Namespace/storedValue(_:path:)``).
    init(_ operation: RecordsModifyRequest.Operation, zone: ZoneID, namespace: Namespace) throws(ServerError) {
        let place = operation.path
        let kind = operation.operationType
        self.kind = kind
        if let name = operation.recordName, !name.isEmpty {
            id = RecordID(recordName: name, zoneID: zone)
        } else if kind == .create {
            id = RecordID(recordName: UUID().uuidString, zoneID: zone)
        } else {
            throw ServerError(.badRequest, "\(place).record.recordName is missing (a string; \(kind.rawValue) needs it)")
        }
        recordType = operation.recordType
        changeTag = operation.recordChangeTag
        fields = try namespace.storedFields(operation.fields, path: "\(place).record.fields")
        deleteSelfFields = operation.deleteSelfFields
        desiredKeys = operation.desiredKeys.map(Set.init)
        parent = operation.parentRecordName.map { name in name.map { RecordID(recordName: $0, zoneID: zone) } }
        share = operation.share
        if let type = recordType, type == RecordShare.storedRecordType {
            throw ServerError(.badRequest, "\(place).record.recordType '\(type)' is the type the server keeps shares as; save a share as 'cloudkit.share'")
        }
        if let type = recordType, SystemRecordTypes.contains(type) {
            throw ServerError(.badRequest, "\(place).record.recordType '\(type)' is a type the store keeps for itself")
        }
        switch kind {
        case .create, .forceReplace, .replace:
            if recordType == nil { throw ServerError(.badRequest, "\(place).record.recordType is missing (a string; \(kind.rawValue) needs it)") }
        default:
            break
        }
        switch kind {
        case .replace, .update, .delete:
            if changeTag == nil {
                let force = "force" + kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()
                throw ServerError(.badRequest, "\(place).record.recordChangeTag is missing (a string; \(kind.rawValue) needs it, or use \(force))")
            }
        default:
            break
        }
    }

    /// The record to save, given what is stored; a per-record error when it cannot be made.
    func recordToSave(stored: Record?) -> Result<Record, ModifyFailure> {
        switch kind {
        case .create:
            var record = Record(recordType: recordType ?? "", recordID: id, fields: Self.withoutNulls(fields))
            DeleteSelfReferences.setFields(deleteSelfFields, on: &record)
            record.recordChangeTag = nil
            if let parent { record.parent = parent }
            return .success(record)
        case .update, .forceUpdate:
            guard var record = stored else { return .failure(ModifyFailure(.notFound, "record '\(id.recordName)' was not found")) }
            // The fields sent take their actions; the others keep theirs.
            let kept = DeleteSelfReferences.fields(of: record).subtracting(fields.keys)
            for (name, value) in fields {
                if value.isNull { record.fields[name] = nil } else { record.fields[name] = value }
            }
            DeleteSelfReferences.setFields(kept.union(deleteSelfFields), on: &record)
            if kind == .update { record.recordChangeTag = changeTag }
            if let parent { record.parent = parent }
            return .success(record)
        case .replace, .forceReplace:
            if kind == .replace, stored == nil { return .failure(ModifyFailure(.notFound, "record '\(id.recordName)' was not found")) }
            var record = Record(recordType: recordType ?? "", recordID: id, fields: Self.withoutNulls(fields))
            DeleteSelfReferences.setFields(deleteSelfFields, on: &record)
            record.recordChangeTag = kind == .replace ? changeTag : stored?.recordChangeTag
            // The parent is the record's place, not one of its fields: kept unless sent.
            record.parent = parent ?? stored?.parent
            return .success(record)
        case .delete, .forceDelete:
            return .failure(ModifyFailure(.badRequest, "a deletion saves no record"))
        }
    }

    private static func withoutNulls(_ fields: [String: Value]) -> [String: Value] {
        fields.filter { !$0.value.isNull }
    }
}

/// Why one operation of a modify failed, before or after the store was asked.
struct ModifyFailure: Error {
    let code: ServerErrorCode
    let reason: String

    init(_ code: ServerErrorCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
#endif

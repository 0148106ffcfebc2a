// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// Shares on the wire: `cloudkit.share` records saved and deleted through `records/modify` in
/// their owner's private database, and the `share` member of the records that are their roots.
///
/// A share is saved after the request's other records, each share in a transaction of its own:
/// a request may save a root record and its share together, as `CKModifyRecordsOperation`
/// does, and the root is stored when its share is checked.
extension CloudKitService {
    /// The operations of a modify that save or delete a share: those of type `cloudkit.share`,
    /// and deletions of a stored share (read only in a private database's zones, the only ones
    /// that hold shares: a public deletion costs no extra read).
    func shareOperationIndexes(_ operations: [ModifyOperation], in namespace: Namespace, store: Store) async throws(ServerError) -> Set<Int> {
        var indexes = Set(operations.indices.filter { operations[$0].share != nil })
        let deletions = operations.indices.filter { operations[$0].kind.isDeletion }
        guard !deletions.isEmpty, case .private = namespace.database else { return indexes }
        let stored = try await run { () async throws(RecordStoreError) in try await store.records(for: deletions.map { operations[$0].id }) }
        for index in deletions {
            if case .success(let record)? = stored[operations[index].id], record.recordType == RecordShare.storedRecordType { indexes.insert(index) }
        }
        return indexes
    }

    /// Runs one share operation of a modify for the owner of a private database: the answer's
    /// entry (the share, its deletion, or an error entry).
    func runShareOperation(_ operation: ModifyOperation, in namespace: Namespace, store: Store, zoneName: String) async throws(ServerError) -> JSONValue {
        let name = operation.id.recordName
        guard case .private = namespace.database else {
            return Self.recordError(name, .badRequest, "record '\(name)': shares live in custom zones of a private database")
        }
        let owner = UserRecordName.owner(of: namespace.database)
        do throws(RecordStoreError) {
            if operation.kind.isDeletion {
                if operation.kind == .delete, let tag = operation.changeTag, let stored = try await store.share(operation.id), stored.recordChangeTag != tag {
                    return Self.recordError(name, .conflict, "share '\(name)' was changed by another request (its change tag is no longer the one given)",
                                            serverRecord: ShareWire.json(stored, zoneName: zoneName, zoneOwner: WireRecord.ownerName, for: owner))
                }
                try await store.deleteShare(operation.id, as: owner)
                return WireRecord.deletedJSON(recordName: name, zoneName: zoneName)
            }
            guard let request = operation.share else { return Self.recordError(name, .badRequest, "record '\(name)' is not a share") }
            let stored = try await store.share(operation.id)
            if operation.kind == .create, stored != nil { return Self.recordError(name, .exists, "record '\(name)' already exists") }
            if (operation.kind == .update || operation.kind == .replace), stored == nil {
                return Self.recordError(name, .notFound, "record '\(name)' was not found")
            }
            var share: RecordShare
            if let root = request.rootRecordName {
                share = RecordShare(rootRecordID: RecordID(recordName: root, zoneID: operation.id.zoneID), owner: owner, recordName: name,
                                    publicPermission: request.publicPermission, participants: request.participants)
            } else if name == RecordShare.zoneShareRecordName {
                share = RecordShare(zone: operation.id.zoneID, owner: owner, publicPermission: request.publicPermission, participants: request.participants)
            } else if let stored {
                share = stored
                share.publicPermission = request.publicPermission
                share.participants = request.participants
            } else {
                return Self.recordError(name, .badRequest, "record '\(name)': a share names its root record in forRecord (or is the zone-wide '\(RecordShare.zoneShareRecordName)')")
            }
            // An update saves over the change tag the client holds; a forced save over the stored one.
            share.recordChangeTag = operation.kind == .update || operation.kind == .replace ? operation.changeTag : stored?.recordChangeTag
            let saved = try await store.saveShare(share, as: owner)
            return ShareWire.json(saved, zoneName: zoneName, zoneOwner: WireRecord.ownerName, for: owner)
        } catch .conflict {
            let current = try await run { () async throws(RecordStoreError) in try await store.share(operation.id) }
            guard let current else { return Self.recordError(name, .notFound, "share '\(name)' was deleted meanwhile") }
            return Self.recordError(name, .conflict, "share '\(name)' was changed by another request (its change tag is no longer the one given)",
                                    serverRecord: ShareWire.json(current, zoneName: zoneName, zoneOwner: WireRecord.ownerName, for: owner))
        } catch {
            if case .serverUnavailable = error { throw Self.serverError(error) }
            let server = Self.serverError(error)
            return Self.recordError(name, server.code, server.reason)
        }
    }

    /// The share of each of these records that is a share's root, in a private database (the
    /// only one whose zones hold shares); empty elsewhere.
    func rootShares(of recordIDs: [RecordID], in namespace: Namespace, store: Store) async throws(ServerError) -> [RecordID: RecordID] {
        guard case .private = namespace.database, !recordIDs.isEmpty else { return [:] }
        return try await run { () async throws(RecordStoreError) in try await store.shareIDs(ofRoots: recordIDs) }
    }

    /// A stored record as its answer: a share as a `cloudkit.share` record, any other record
    /// as ``WireRecord`` writes it (``RecordsAnswer/Entry``).
    func answerEntry(
        _ record: Record, in store: Store, zoneName: String, desiredKeys: Set<String>?, style: RecordAnswerStyle, user: String?
    ) async throws(ServerError) -> RecordsAnswer.Entry {
        if record.recordType == RecordShare.storedRecordType,
           let share = try await run({ () async throws(RecordStoreError) in try await store.share(record.recordID) }) {
            return .json(ShareWire.json(share, zoneName: zoneName, zoneOwner: style.zoneOwner, for: user))
        }
        return .record(record, desiredKeys: desiredKeys)
    }
}
#endif

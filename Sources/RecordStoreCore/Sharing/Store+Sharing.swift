import Foundation
import PredicateLanguage

/// Shares (``RecordShare``) kept in the store itself (as the type `ShareRecords` says), so that every
/// engine keeps them and every server over one store agrees at once.
///
/// Users are plain user record names, zones plain ``ZoneID``s: the store knows nothing of the
/// databases a server builds over it. The operations that take `as user` check that the user
/// owns the share when one is given (a server passes its signed-in user); the library and the
/// command line, which own the store, pass none.
extension Store {
    /// How many times an operation reads a share again after another writer changed it in
    /// between (accepting, removing a participant), or draws a new short GUID after a collision.
    private static let shareWriteAttempts = 8

    /// Creates or updates a share: its root record (or zone), participants and public
    /// permission. Returns the share as saved, with its short GUID and change tag.
    ///
    /// A new share gets a random short GUID; an update must carry the stored change tag (as
    /// fetched) or is a ``RecordStoreError/conflict(_:expected:found:)``, and keeps the share's
    /// owner, root and short GUID. The participants are the owner first, then the given ones in
    /// order: a new participant is `PENDING`; an existing one keeps their acceptance status,
    /// unless the save marks them `REMOVED` (or `PENDING` again after `REMOVED`: invited anew).
    /// A participant left out of the list loses access at once.
    ///
    /// Throws ``RecordStoreError/sharing(_:)``: ``ShareProblem/rootNotFound(_:)``,
    /// ``ShareProblem/alreadyShared(_:by:)`` (a record has one share; a zone has a zone-wide
    /// share or record shares), ``ShareProblem/zoneAlreadyShared(_:by:)``,
    /// ``ShareProblem/notOwner(share:user:owner:)`` when `user` is given and does not own the
    /// share, ``ShareProblem/invalidShare(_:reason:)``.
    ///
    /// ```swift
    /// var share = RecordShare(rootRecordID: tripID, owner: "_ada", participants: [
    ///     ShareParticipant(userRecordName: "_bob", permission: .readOnly),
    ///     ShareParticipant(userRecordName: "_carol", permission: .readWrite),
    /// ])
    /// share = try await store.saveShare(share)
    /// share.participants[1].permission = .readWrite
    /// share = try await store.saveShare(share)        // Bob may now write too
    /// ```
    @discardableResult
    public func saveShare(_ share: RecordShare, as user: String? = nil) async throws(RecordStoreError) -> RecordShare {
        try Self.checkShape(of: share)
        try await prepareSharing()
        var attempt = 1
        while true {
            do {
                return try await writeShare(share, as: user)
            } catch .conflict(let id, _, _) where id.zoneID == ShareRecords.zone && attempt < Self.shareWriteAttempts {
                attempt += 1  // another share drew the same short GUID: draw again
            }
        }
    }

    /// Deletes a share: every record it shared is unshared at once, for every participant.
    /// Deleting a share's root record or its zone deletes the share too.
    ///
    /// ```swift
    /// try await store.deleteShare(share.recordID)
    /// ```
    public func deleteShare(_ shareID: RecordID, as user: String? = nil) async throws(RecordStoreError) {
        guard let stored = try await self.share(shareID) else { throw .sharing(.shareNotFound(shareID)) }
        try Self.checkOwner(stored, user)
        _ = try await write(RecordChangeSet(deleting: [shareID, ShareRecords.indexID(shortGUID: stored.shortGUID)], author: user ?? stored.owner))
    }

    /// The share with this record identifier, or nil.
    ///
    /// ```swift
    /// try await store.share(RecordID(recordName: RecordShare.zoneShareRecordName, zoneID: trips))?.participants
    /// ```
    public func share(_ shareID: RecordID) async throws(RecordStoreError) -> RecordShare? {
        let record: Record?
        do throws(RecordStoreError) {
            record = try await self.record(for: shareID)
        } catch .zoneNotFound {
            return nil
        }
        guard let record else { return nil }
        return try ShareRecords.share(from: record)
    }

    /// The share whose root is this record (what CloudKit answers as the root record's `share`),
    /// or nil. A record shared through its parent, or through a zone-wide share, has none of its
    /// own: see ``sharePermission(of:for:)``.
    ///
    /// ```swift
    /// try await store.share(rootedAt: tripID)?.recordID.recordName   // "Share-6F1C..."
    /// ```
    public func share(rootedAt recordID: RecordID) async throws(RecordStoreError) -> RecordShare? {
        try await shares(in: recordID.zoneID).first { $0.rootRecordID == recordID }
    }

    /// The share of each of these records that is a share's root, by record: what CloudKit
    /// answers as each record's `share` (a reference to the share record), read with one query a
    /// zone. Records that are no share's root are left out.
    ///
    /// ```swift
    /// let shares = try await store.shareIDs(ofRoots: page.map(\.recordID))
    /// shares[tripID]?.recordName   // "Share-6F1C..."
    /// ```
    public func shareIDs(ofRoots recordIDs: [RecordID]) async throws(RecordStoreError) -> [RecordID: RecordID] {
        var found: [RecordID: RecordID] = [:]
        let wanted = Set(recordIDs)
        for zone in Set(recordIDs.map(\.zoneID)) {
            for share in try await shares(in: zone) {
                if let root = share.rootRecordID, wanted.contains(root) { found[root] = share.recordID }
            }
        }
        return found
    }

    /// The shares of a zone (its record shares or its zone-wide share), by record name.
    ///
    /// ```swift
    /// try await store.shares(in: trips).map(\.recordID.recordName)
    /// ```
    public func shares(in zone: ZoneID) async throws(RecordStoreError) -> [RecordShare] {
        let records: [Record]
        do throws(RecordStoreError) {
            records = try await self.records(ofType: RecordShare.storedRecordType, matching: .truePredicate, zone: zone)
        } catch .zoneNotFound, .unknownRecordType {
            return []
        }
        var shares: [RecordShare] = []
        for record in records { if let share = try ShareRecords.share(from: record) { shares.append(share) } }
        return shares.sorted { SortComparison.compareBytes($0.recordID.recordName, $1.recordID.recordName) == .orderedAscending }
    }

    /// The share with this short GUID, or nil: what a participant's link names.
    ///
    /// ```swift
    /// let invited = try await store.share(shortGUID: "q3Xv0aE9JbKQ8m1k2F7s4w")
    /// ```
    public func share(shortGUID: String) async throws(RecordStoreError) -> RecordShare? {
        guard !shortGUID.isEmpty else { return nil }
        let entry: Record?
        do throws(RecordStoreError) {
            entry = try await record(for: ShareRecords.indexID(shortGUID: shortGUID))
        } catch .zoneNotFound {
            return nil
        }
        guard let entry, let id = ShareRecords.indexedShareID(entry), let share = try await self.share(id), share.shortGUID == shortGUID else { return nil }
        return share
    }

    /// Accepts a share by its short GUID (CloudKit's `accept`): the user's participant goes from
    /// `PENDING` to `ACCEPTED`, and the shared records are theirs to read (and write, with
    /// `READ_WRITE`). A participant invited by email is matched by `emailAddress` and gets the
    /// user's record name. A user who is not invited joins a share whose public permission is
    /// not `NONE` as a ``ShareParticipantRole/publicUser``. Accepting again, or as the owner,
    /// changes nothing.
    ///
    /// Throws ``ShareProblem/shortGUIDNotFound(_:)`` and ``ShareProblem/notInvited(shortGUID:user:)``
    /// (not a participant, or `REMOVED`, and the share is not public).
    ///
    /// ```swift
    /// let accepted = try await store.acceptShare(shortGUID: share.shortGUID, as: "_bob")
    /// accepted.currentUserParticipant("_bob")?.acceptanceStatus   // .accepted
    /// ```
    @discardableResult
    public func acceptShare(shortGUID: String, as user: String, emailAddress: String? = nil) async throws(RecordStoreError) -> RecordShare {
        var attempt = 1
        while true {
            guard var share = try await self.share(shortGUID: shortGUID) else { throw .sharing(.shortGUIDNotFound(shortGUID)) }
            if user == share.owner { return share }
            if let index = share.participants.firstIndex(where: { $0.role != .owner && $0.isUser(user, emailAddress: emailAddress) }) {
                let participant = share.participants[index]
                if participant.acceptanceStatus == .accepted, participant.userRecordName == user { return share }
                guard participant.acceptanceStatus != .removed else { throw .sharing(.notInvited(shortGUID: shortGUID, user: user)) }
                share.participants[index].userRecordName = user
                share.participants[index].acceptanceStatus = .accepted
            } else if share.publicPermission != .none {
                share.participants.append(ShareParticipant(
                    userRecordName: user, emailAddress: emailAddress, permission: share.publicPermission, acceptanceStatus: .accepted, role: .publicUser))
            } else {
                throw .sharing(.notInvited(shortGUID: shortGUID, user: user))
            }
            do {
                return try await writeStoredShare(share, isNew: false, author: user)
            } catch .conflict(let id, _, _) where id == share.recordID && attempt < Self.shareWriteAttempts {
                attempt += 1  // the share changed since it was read: read it again
            }
        }
    }

    /// Takes a participant off a share (by user record name or email address): they lose
    /// access at once. Returns the share as saved.
    ///
    /// ```swift
    /// try await store.removeParticipant("_bob", from: share.recordID)
    /// ```
    @discardableResult
    public func removeParticipant(_ participant: String, from shareID: RecordID, as user: String? = nil) async throws(RecordStoreError) -> RecordShare {
        var attempt = 1
        while true {
            guard var share = try await self.share(shareID) else { throw .sharing(.shareNotFound(shareID)) }
            try Self.checkOwner(share, user)
            let before = share.participants.count
            share.participants.removeAll { $0.role != .owner && ($0.userRecordName == participant || $0.emailAddress?.lowercased() == participant.lowercased()) }
            guard share.participants.count < before else { throw .sharing(.participantNotFound(share: shareID, participant: participant)) }
            do {
                return try await saveShare(share, as: user)
            } catch .conflict(let id, _, _) where id == shareID && attempt < Self.shareWriteAttempts {
                attempt += 1
            }
        }
    }

    /// The shares shared with a user: those that list them (by user record name, or by
    /// `emailAddress` for an invitation by email) as a participant who is `PENDING` (an
    /// invitation) or `ACCEPTED` (in their shared database), and that they do not own; by zone,
    /// then record name. A server's shared database is the zones of the accepted ones, each with
    /// its owner; ``RecordShare/permission(for:)`` says what the user may do there.
    ///
    /// ```swift
    /// for share in try await store.shares(sharedWith: "_bob") {
    ///     print(share.zoneID, share.owner, share.permission(for: "_bob") ?? .none)
    /// }
    /// ```
    public func shares(sharedWith user: String, emailAddress: String? = nil) async throws(RecordStoreError) -> [RecordShare] {
        var predicate = "%@ IN users"
        var arguments: [Value] = [.string(user)]
        if let emailAddress {
            predicate += " OR %@ IN emails"
            arguments.append(.string(emailAddress.lowercased()))
        }
        return try await indexedShares(predicate, arguments).filter { share in
            guard share.owner != user, let participant = share.currentUserParticipant(user, emailAddress: emailAddress) else { return false }
            return participant.acceptanceStatus != .removed
        }
    }

    /// The shares a user owns, by zone, then record name.
    ///
    /// ```swift
    /// try await store.shares(ownedBy: "_ada").count
    /// ```
    public func shares(ownedBy user: String) async throws(RecordStoreError) -> [RecordShare] {
        try await indexedShares("owner == %@", [.string(user)]).filter { $0.owner == user }
    }

    /// Every share of the store, by zone, then record name.
    ///
    /// ```swift
    /// for share in try await store.allShares() { print(share.recordID, share.owner) }
    /// ```
    public func allShares() async throws(RecordStoreError) -> [RecordShare] {
        try await indexedShares("TRUEPREDICATE", [])
    }

    // MARK: - Writing

    /// Checks what a share is, before anything is read: a custom zone, a root in the share's
    /// zone, the zone-wide name for a zone-wide share only, an owner.
    private static func checkShape(of share: RecordShare) throws(RecordStoreError) {
        func invalid(_ reason: String) -> RecordStoreError { .sharing(.invalidShare(share.recordID, reason: reason)) }
        guard share.recordID.canBeStored, !share.recordID.recordName.isEmpty else { throw invalid("its record name is empty or holds a NUL character") }
        guard share.zoneID != .default else { throw invalid("the default zone cannot be shared: shares live in custom zones") }
        guard share.zoneID != ShareRecords.zone, share.zoneID != securityZone else {
            throw invalid("zone '\(share.zoneID.zoneName)' is the store's own and cannot be shared")
        }
        guard !share.owner.isEmpty else { throw invalid("it has no owner") }
        if let root = share.rootRecordID {
            guard root.zoneID == share.zoneID else { throw invalid("its root \(root) is not in the share's zone '\(share.zoneID.zoneName)'") }
            guard share.recordID.recordName != RecordShare.zoneShareRecordName else {
                throw invalid("'\(RecordShare.zoneShareRecordName)' names the zone-wide share, which has no root record")
            }
        } else {
            guard share.recordID.recordName == RecordShare.zoneShareRecordName else {
                throw invalid("a zone-wide share is named '\(RecordShare.zoneShareRecordName)'")
            }
        }
    }

    /// Refuses a user who does not own a share (nil: the library, which owns the store).
    private static func checkOwner(_ share: RecordShare, _ user: String?) throws(RecordStoreError) {
        if let user, user != share.owner { throw .sharing(.notOwner(share: share.recordID, user: user, owner: share.owner)) }
    }

    /// One attempt at ``saveShare(_:as:)``.
    private func writeShare(_ given: RecordShare, as user: String?) async throws(RecordStoreError) -> RecordShare {
        let stored = try await self.share(given.recordID)
        var share = given
        func invalid(_ reason: String) -> RecordStoreError { .sharing(.invalidShare(share.recordID, reason: reason)) }
        if let stored {
            try Self.checkOwner(stored, user)
            guard given.owner == stored.owner else { throw invalid("its owner is \(stored.owner); a share's owner does not change") }
            guard given.rootRecordID == stored.rootRecordID else { throw invalid("its root does not change") }
            share.shortGUID = stored.shortGUID
        } else {
            try Self.checkOwner(given, user)
            share.shortGUID = ShareRecords.newShortGUID()
        }
        try await checkRoot(of: share)
        share.participants = try Self.participants(of: given, stored: stored)
        return try await writeStoredShare(share, isNew: stored == nil, author: user ?? share.owner)
    }

    /// Checks that a share's root is stored and shareable, and that nothing else shares it.
    private func checkRoot(of share: RecordShare) async throws(RecordStoreError) {
        func invalid(_ reason: String) -> RecordStoreError { .sharing(.invalidShare(share.recordID, reason: reason)) }
        let others = try await shares(in: share.zoneID).filter { $0.recordID != share.recordID }
        guard let rootID = share.rootRecordID else {
            if let other = others.first { throw .sharing(.zoneAlreadyShared(share.zoneID, by: other.recordID)) }
            return
        }
        guard let root = try await record(for: rootID) else { throw .sharing(.rootNotFound(rootID)) }
        guard !SystemRecordTypes.contains(root.recordType) else { throw invalid("\(rootID) is a record of the store's own type \(root.recordType)") }
        if let other = others.first(where: { $0.isZoneWide || $0.rootRecordID == rootID }) {
            throw .sharing(.alreadyShared(rootID, by: other.recordID))
        }
    }

    /// The participants a save keeps: the owner first, then the given ones, each checked, with
    /// the acceptance status and role the store keeps for them.
    private static func participants(of share: RecordShare, stored: RecordShare?) throws(RecordStoreError) -> [ShareParticipant] {
        func invalid(_ reason: String) -> RecordStoreError { .sharing(.invalidShare(share.recordID, reason: reason)) }
        var kept = [share.ownerParticipant]
        for given in share.participants where given.role != .owner && given.userRecordName != share.owner {
            guard given.userRecordName?.isEmpty == false || given.emailAddress?.isEmpty == false else {
                throw invalid("a participant has neither a user record name nor an email address")
            }
            guard !kept.contains(where: { $0.isSamePerson(as: given) }) else { throw invalid("participant \(given.displayName) is listed twice") }
            var participant = given
            if let previous = stored?.participants.first(where: { $0.role != .owner && $0.isSamePerson(as: given) }) {
                participant.role = previous.role
                participant.userRecordName = previous.userRecordName ?? given.userRecordName
                participant.emailAddress = given.emailAddress ?? previous.emailAddress
                participant.acceptanceStatus = switch (given.acceptanceStatus, previous.acceptanceStatus) {
                case (.removed, _): .removed
                case (.pending, .removed): .pending
                default: previous.acceptanceStatus
                }
            } else {
                participant.role = .privateUser
                participant.acceptanceStatus = .pending
            }
            // A public user's access follows the public permission; anyone else reads or writes.
            guard participant.permission != .none || participant.role == .publicUser else {
                throw invalid("participant \(given.displayName) has permission NONE (a participant reads or writes)")
            }
            kept.append(participant)
        }
        return kept
    }

    /// Writes a share and its index entry in one transaction; returns the share as saved. A new
    /// share's entry must be new (a short GUID taken is a conflict on the entry); an existing
    /// share's entry is replaced.
    private func writeStoredShare(_ share: RecordShare, isNew: Bool, author: String) async throws(RecordStoreError) -> RecordShare {
        var storedRecord: Record? = nil
        if !isNew { storedRecord = try await self.record(for: share.recordID) }
        let record = try ShareRecords.record(of: share, storing: storedRecord)
        let entry = ShareRecords.indexRecord(of: share)
        let saved = try await write(RecordChangeSet(
            saving: [record, entry], overwriting: isNew ? [] : [entry.recordID], author: author))
        guard let savedRecord = saved.first(where: { $0.recordID == share.recordID }), let result = try ShareRecords.share(from: savedRecord) else {
            throw .storage("the save of share \(share.recordID) returned no share")
        }
        return result
    }

    /// Creates the index zone and the record types, once.
    private func prepareSharing() async throws(RecordStoreError) {
        try await createZone(ShareRecords.zone)
        for recordType in ShareRecords.recordTypes {
            if try await schema(for: recordType.name) == nil { try await define(recordType) }
        }
    }

    // MARK: - Reading the index

    /// The shares whose index entries match a predicate, each read from its zone (entries whose
    /// share is gone or has another short GUID left out), by zone, then record name.
    private func indexedShares(_ format: String, _ arguments: [Value]) async throws(RecordStoreError) -> [RecordShare] {
        let predicate: FormatPredicate
        do {
            predicate = try FormatPredicate(format: format, argumentArray: arguments)
        } catch {
            throw .invalidQuery("the share lookup could not be written: \(error)")
        }
        let entries: [Record]
        do throws(RecordStoreError) {
            entries = try await records(ofType: ShareRecords.indexRecordType, matching: predicate, zone: ShareRecords.zone)
        } catch .zoneNotFound, .unknownRecordType {
            return []
        }
        var shares: [RecordShare] = []
        for entry in entries {
            guard let id = ShareRecords.indexedShareID(entry), let share = try await self.share(id), share.shortGUID == entry.recordID.recordName else { continue }
            shares.append(share)
        }
        return shares.sorted { lhs, rhs in
            switch SortComparison.compareBytes(lhs.zoneID.zoneName, rhs.zoneID.zoneName) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: SortComparison.compareBytes(lhs.recordID.recordName, rhs.recordID.recordName) == .orderedAscending
            }
        }
    }
}

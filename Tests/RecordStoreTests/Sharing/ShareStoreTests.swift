import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
import Testing

/// Shares kept in the store (``RecordShare``) on every engine: a hierarchy shared read-only with
/// Bob and read-write with Carol, permissions resolved up parent chains (a cycle and records
/// outside the hierarchy included), accepting by short GUID, zone-wide shares and joining through
/// a public permission, removing a participant and deleting the share.
@Suite struct ShareStoreTests {
    static let trips = ZoneID(zoneName: "Trips")

    static func id(_ name: String, _ zone: ZoneID = trips) -> RecordID { RecordID(recordName: name, zoneID: zone) }

    /// A record of the Trips zone with an optional parent.
    static func record(_ name: String, parent: String? = nil, zone: ZoneID = trips) -> Record {
        var record = Record(recordType: "Item", recordID: id(name, zone), fields: ["title": .string(name)])
        record.parent = parent.map { id($0, zone) }
        return record
    }

    /// trip <- day1 <- {stop1, stop2}; loose (no parent); cycA <-> cycB (a cycle outside the
    /// hierarchy); and a record named like a child in another zone.
    static func makeHierarchy(_ store: Store) async throws {
        try await store.createZone(trips)
        try await store.createZone(ZoneID(zoneName: "Other"))
        try await store.save([
            record("trip"), record("day1", parent: "trip"), record("stop1", parent: "day1"), record("stop2", parent: "day1"),
            record("loose"), record("cycA", parent: "cycB"), record("cycB", parent: "cycA"),
            record("stop1", parent: "day1", zone: ZoneID(zoneName: "Other")),
        ])
    }

    /// The owner as the store lists them.
    static func owner(_ name: String) -> ShareParticipant {
        ShareParticipant(userRecordName: name, emailAddress: nil, permission: .readWrite, acceptanceStatus: .accepted, role: .owner)
    }

    /// What each user may do with each record, `-` for nothing: one line a record.
    static func permissions(_ store: Store, _ records: [RecordID], _ users: [String]) async throws -> [String] {
        var lines: [String] = []
        for record in records {
            var line = record.recordName + ":"
            for user in users {
                let permission = try await store.sharePermission(of: record, for: user)
                line += " " + (permission?.rawValue ?? "-")
            }
            lines.append(line)
        }
        return lines
    }

    @Test("A hierarchy shared read-only with Bob and read-write with Carol: permissions follow the parent chain", arguments: TestEngine.allCases)
    func hierarchy(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await Self.makeHierarchy(store)
        var share = RecordShare(rootRecordID: Self.id("trip"), owner: "_ada", recordName: "share-trip", participants: [
            ShareParticipant(userRecordName: "_bob", permission: .readOnly),
            ShareParticipant(userRecordName: "_carol", permission: .readWrite),
        ])
        share = try await store.saveShare(share)
        #expect(share.recordID == Self.id("share-trip"))
        #expect(share.rootRecordID == Self.id("trip"))
        #expect(share.participants == [
            Self.owner("_ada"),
            ShareParticipant(userRecordName: "_bob", emailAddress: nil, permission: .readOnly, acceptanceStatus: .pending, role: .privateUser),
            ShareParticipant(userRecordName: "_carol", emailAddress: nil, permission: .readWrite, acceptanceStatus: .pending, role: .privateUser),
        ])
        #expect(share.shortGUID.count == 22)
        #expect(share.shortGUID.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" })
        #expect(share.recordChangeTag != nil)
        #expect(try await store.share(shortGUID: share.shortGUID) == share)
        #expect(try await store.share(share.recordID) == share)
        #expect(try await store.share(rootedAt: Self.id("trip")) == share)
        #expect(try await store.share(rootedAt: Self.id("day1")) == nil)
        #expect(try await store.shareIDs(ofRoots: [Self.id("trip"), Self.id("day1"), Self.id("trip", ZoneID(zoneName: "Other"))])
            == [Self.id("trip"): share.recordID])

        let records = ["trip", "day1", "stop1", "stop2", "loose", "cycA", "cycB"].map { Self.id($0) } + [Self.id("stop1", ZoneID(zoneName: "Other"))]
        let users = ["_ada", "_bob", "_carol", "_dan"]
        // Invited, not accepted: only the owner.
        #expect(try await Self.permissions(store, records, users) == [
            "trip: READ_WRITE - - -", "day1: READ_WRITE - - -", "stop1: READ_WRITE - - -", "stop2: READ_WRITE - - -",
            "loose: - - - -", "cycA: - - - -", "cycB: - - - -", "stop1: - - - -",
        ])
        #expect(try await store.shares(sharedWith: "_bob").map(\.recordID) == [share.recordID])
        #expect(try await store.shares(sharedWith: "_bob").first?.currentUserParticipant("_bob")?.acceptanceStatus == .pending)

        let accepted = try await store.acceptShare(shortGUID: share.shortGUID, as: "_bob")
        #expect(accepted.currentUserParticipant("_bob")?.acceptanceStatus == .accepted)
        try await store.acceptShare(shortGUID: share.shortGUID, as: "_carol")
        try await store.acceptShare(shortGUID: share.shortGUID, as: "_carol")  // again: nothing changes
        try await store.acceptShare(shortGUID: share.shortGUID, as: "_ada")    // the owner: nothing changes
        #expect(try await Self.permissions(store, records, users) == [
            "trip: READ_WRITE READ_ONLY READ_WRITE -", "day1: READ_WRITE READ_ONLY READ_WRITE -",
            "stop1: READ_WRITE READ_ONLY READ_WRITE -", "stop2: READ_WRITE READ_ONLY READ_WRITE -",
            "loose: - - - -", "cycA: - - - -", "cycB: - - - -", "stop1: - - - -",
        ])
        #expect(try await store.sharePermissions(of: records, for: "_bob") == [
            Self.id("trip"): .readOnly, Self.id("day1"): .readOnly, Self.id("stop1"): .readOnly, Self.id("stop2"): .readOnly,
        ])
        #expect(try await store.sharePermissions(of: records, for: "_dan") == [:])
        let stored = try #require(try await store.share(share.recordID))
        #expect(stored.participants.map(\.acceptanceStatus) == [.accepted, .accepted, .accepted])
        #expect(stored.permission(for: "_bob") == .readOnly)
        #expect(stored.permission(for: "_dan") == nil)

        // A record about to be saved is judged by its parent; a missing record by nothing.
        #expect(try await store.sharePermission(toSave: Self.record("stop3", parent: "day1"), for: "_carol") == .readWrite)
        #expect(try await store.sharePermission(toSave: Self.record("stop3", parent: "loose"), for: "_carol") == nil)
        #expect(try await store.sharePermission(of: Self.id("missing"), for: "_carol") == nil)
        // A cycle through the root ends the climb where it closes.
        var trip = try #require(try await store.record(for: Self.id("trip")))
        trip.parent = Self.id("stop2")
        try await store.save([trip])
        #expect(try await store.sharePermission(of: Self.id("stop1"), for: "_bob") == .readOnly)

        // The shared view of each user, the owner's view.
        #expect(try await store.shares(sharedWith: "_carol").map { "\($0.zoneID.zoneName) \($0.owner) \($0.permission(for: "_carol")?.rawValue ?? "-")" }
            == ["Trips _ada READ_WRITE"])
        #expect(try await store.shares(sharedWith: "_ada").isEmpty)
        #expect(try await store.shares(sharedWith: "_dan").isEmpty)
        #expect(try await store.shares(ownedBy: "_ada").map(\.recordID) == [share.recordID])
        #expect(try await store.shares(ownedBy: "_bob").isEmpty)
        #expect(try await store.allShares().map(\.recordID) == [share.recordID])
        #expect(try await store.shares(in: Self.trips).map(\.recordID) == [share.recordID])

        // A record has one share; a zone has record shares or a zone-wide share; the root must be stored.
        await #expect(throws: RecordStoreError.sharing(.alreadyShared(Self.id("trip"), by: share.recordID))) {
            try await store.saveShare(RecordShare(rootRecordID: Self.id("trip"), owner: "_ada", recordName: "second"))
        }
        await #expect(throws: RecordStoreError.sharing(.zoneAlreadyShared(Self.trips, by: share.recordID))) {
            try await store.saveShare(RecordShare(zone: Self.trips, owner: "_ada"))
        }
        await #expect(throws: RecordStoreError.sharing(.rootNotFound(Self.id("missing")))) {
            try await store.saveShare(RecordShare(rootRecordID: Self.id("missing"), owner: "_ada", recordName: "third"))
        }
        await #expect(throws: RecordStoreError.sharing(.notOwner(share: share.recordID, user: "_bob", owner: "_ada"))) {
            try await store.saveShare(stored, as: "_bob")
        }
        await #expect(throws: RecordStoreError.sharing(.invalidShare(
            RecordID(recordName: "s"), reason: "the default zone cannot be shared: shares live in custom zones"))) {
            try await store.saveShare(RecordShare(rootRecordID: RecordID(recordName: "r"), owner: "_ada", recordName: "s"))
        }
        await #expect(throws: RecordStoreError.sharing(.invalidShare(
            Self.id("fourth"), reason: "participant _bob is listed twice"))) {
            try await store.saveShare(RecordShare(rootRecordID: Self.id("loose"), owner: "_ada", recordName: "fourth", participants: [
                ShareParticipant(userRecordName: "_bob", permission: .readOnly), ShareParticipant(userRecordName: "_bob", permission: .readWrite),
            ]))
        }
        await #expect(throws: RecordStoreError.sharing(.invalidShare(
            Self.id("fifth"), reason: "participant _bob has permission NONE (a participant reads or writes)"))) {
            try await store.saveShare(RecordShare(rootRecordID: Self.id("loose"), owner: "_ada", recordName: "fifth", participants: [
                ShareParticipant(userRecordName: "_bob", permission: .none),
            ]))
        }
        // Shares are the store's own records: no schema export names them.
        let exported = try await store.schemaDocument()
        #expect(exported.recordTypes.map(\.name) == ["Item"])
        #expect(exported.recordTypes.first?.fields.map(\.name).contains(Record.parentFieldName) == false)
    }

    @Test("The owner changes permissions, removes a participant, deletes the share; deleting the root deletes it too", arguments: TestEngine.allCases)
    func ownerChanges(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await Self.makeHierarchy(store)
        var share = try await store.saveShare(RecordShare(rootRecordID: Self.id("trip"), owner: "_ada", recordName: "share-trip", participants: [
            ShareParticipant(userRecordName: "_bob", permission: .readOnly),
            ShareParticipant(userRecordName: "_carol", permission: .readWrite),
        ]))
        try await store.acceptShare(shortGUID: share.shortGUID, as: "_bob")
        try await store.acceptShare(shortGUID: share.shortGUID, as: "_carol")
        let stale = share
        share = try #require(try await store.share(share.recordID))

        // Saving again: Bob may now write, Carol only read; their acceptance stays.
        share.participants[1].permission = .readWrite
        share.participants[2].permission = .readOnly
        share.participants[2].acceptanceStatus = .pending  // a save does not take an acceptance back
        share = try await store.saveShare(share)
        #expect(share.participants == [
            Self.owner("_ada"),
            ShareParticipant(userRecordName: "_bob", emailAddress: nil, permission: .readWrite, acceptanceStatus: .accepted, role: .privateUser),
            ShareParticipant(userRecordName: "_carol", emailAddress: nil, permission: .readOnly, acceptanceStatus: .accepted, role: .privateUser),
        ])
        #expect(try await Self.permissions(store, [Self.id("stop1")], ["_bob", "_carol"]) == ["stop1: READ_WRITE READ_ONLY"])
        await #expect(throws: RecordStoreError.conflict(share.recordID, expected: stale.recordChangeTag, found: share.recordChangeTag)) {
            try await store.saveShare(stale)
        }

        // Removing Bob takes his access away at once; marking Carol REMOVED too, and she cannot accept again.
        share = try await store.removeParticipant("_bob", from: share.recordID)
        #expect(share.participants.compactMap(\.userRecordName) == ["_ada", "_carol"])
        #expect(try await store.sharePermission(of: Self.id("stop1"), for: "_bob") == nil)
        #expect(try await store.shares(sharedWith: "_bob").isEmpty)
        await #expect(throws: RecordStoreError.sharing(.notInvited(shortGUID: share.shortGUID, user: "_bob"))) {
            try await store.acceptShare(shortGUID: share.shortGUID, as: "_bob")
        }
        await #expect(throws: RecordStoreError.sharing(.participantNotFound(share: share.recordID, participant: "_bob"))) {
            try await store.removeParticipant("_bob", from: share.recordID)
        }
        share.participants[1].acceptanceStatus = .removed
        share = try await store.saveShare(share)
        #expect(share.participants[1].acceptanceStatus == .removed)
        #expect(try await store.sharePermission(of: Self.id("stop1"), for: "_carol") == nil)
        #expect(try await store.shares(sharedWith: "_carol").isEmpty)
        await #expect(throws: RecordStoreError.sharing(.notInvited(shortGUID: share.shortGUID, user: "_carol"))) {
            try await store.acceptShare(shortGUID: share.shortGUID, as: "_carol")
        }
        // Invited anew: PENDING, then ACCEPTED.
        share.participants[1].acceptanceStatus = .pending
        share = try await store.saveShare(share)
        #expect(share.participants[1].acceptanceStatus == .pending)
        try await store.acceptShare(shortGUID: share.shortGUID, as: "_carol")
        #expect(try await store.sharePermission(of: Self.id("stop1"), for: "_carol") == .readOnly)

        // Only the owner deletes; deleting unshares everything and leaves the records.
        await #expect(throws: RecordStoreError.sharing(.notOwner(share: share.recordID, user: "_carol", owner: "_ada"))) {
            try await store.deleteShare(share.recordID, as: "_carol")
        }
        try await store.deleteShare(share.recordID, as: "_ada")
        #expect(try await store.sharePermission(of: Self.id("stop1"), for: "_carol") == nil)
        #expect(try await store.sharePermission(of: Self.id("stop1"), for: "_ada") == nil)
        #expect(try await store.share(shortGUID: share.shortGUID) == nil)
        #expect(try await store.allShares().isEmpty)
        #expect(try await store.record(for: Self.id("trip")) != nil)
        await #expect(throws: RecordStoreError.sharing(.shareNotFound(share.recordID))) {
            try await store.deleteShare(share.recordID)
        }

        // Deleting the root deletes its share (DELETE_SELF); its index entry is then ignored.
        let again = try await store.saveShare(RecordShare(rootRecordID: Self.id("day1"), owner: "_ada", recordName: "share-day", participants: [
            ShareParticipant(userRecordName: "_bob", permission: .readOnly),
        ]))
        try await store.acceptShare(shortGUID: again.shortGUID, as: "_bob")
        #expect(try await store.sharePermission(of: Self.id("stop2"), for: "_bob") == .readOnly)
        try await store.delete([Self.id("day1")])
        #expect(try await store.share(again.recordID) == nil)
        #expect(try await store.share(shortGUID: again.shortGUID) == nil)
        #expect(try await store.shares(sharedWith: "_bob").isEmpty)
        #expect(try await store.sharePermission(of: Self.id("stop2"), for: "_bob") == nil)
    }

    @Test("A zone-wide share: invited by name and by email, joined through the public permission, gone with its zone", arguments: TestEngine.allCases)
    func zoneWide(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let album = ZoneID(zoneName: "Album")
        try await store.createZone(album)
        try await store.save([Self.record("p1", zone: album), Self.record("p2", parent: "p1", zone: album)])
        var share = try await store.saveShare(RecordShare(zone: album, owner: "_ada", publicPermission: .readOnly, participants: [
            ShareParticipant(userRecordName: "_bob", permission: .readWrite),
            ShareParticipant(emailAddress: "Erin@Example.org", permission: .readOnly),
        ]))
        #expect(share.recordID == RecordID(recordName: "cloudkit.zoneshare", zoneID: album))
        #expect(share.isZoneWide)
        #expect(share.rootRecordID == nil)
        await #expect(throws: RecordStoreError.sharing(.alreadyShared(Self.id("p1", album), by: share.recordID))) {
            try await store.saveShare(RecordShare(rootRecordID: Self.id("p1", album), owner: "_ada", recordName: "p1-share"))
        }

        // An invitation by email shows in the shared view of whoever has that address, until accepted.
        #expect(try await store.shares(sharedWith: "_erin", emailAddress: "erin@example.org").map(\.recordID) == [share.recordID])
        #expect(try await store.shares(sharedWith: "_erin").isEmpty)
        let erin = try await store.acceptShare(shortGUID: share.shortGUID, as: "_erin", emailAddress: "ERIN@example.org")
        #expect(erin.participants[2] == ShareParticipant(
            userRecordName: "_erin", emailAddress: "Erin@Example.org", permission: .readOnly, acceptanceStatus: .accepted, role: .privateUser))
        #expect(try await store.shares(sharedWith: "_erin").map(\.recordID) == [share.recordID])

        // Dan is not invited: the public permission lets him join, as a public user.
        try await store.acceptShare(shortGUID: share.shortGUID, as: "_bob")
        let joined = try await store.acceptShare(shortGUID: share.shortGUID, as: "_dan")
        #expect(joined.participants.last == ShareParticipant(
            userRecordName: "_dan", emailAddress: nil, permission: .readOnly, acceptanceStatus: .accepted, role: .publicUser))
        let records = [Self.id("p1", album), Self.id("p2", album), Self.id("absent", album)]
        #expect(try await Self.permissions(store, records, ["_ada", "_bob", "_dan", "_erin", "_eve"]) == [
            "p1: READ_WRITE READ_WRITE READ_ONLY READ_ONLY -", "p2: READ_WRITE READ_WRITE READ_ONLY READ_ONLY -",
            "absent: READ_WRITE READ_WRITE READ_ONLY READ_ONLY -",
        ])

        // Without a public permission, public users lose access and nobody else may join.
        share = try #require(try await store.share(share.recordID))
        share.publicPermission = .none
        share = try await store.saveShare(share)
        #expect(try await Self.permissions(store, [Self.id("p2", album)], ["_bob", "_dan"]) == ["p2: READ_WRITE -"])
        await #expect(throws: RecordStoreError.sharing(.notInvited(shortGUID: share.shortGUID, user: "_eve"))) {
            try await store.acceptShare(shortGUID: share.shortGUID, as: "_eve")
        }
        await #expect(throws: RecordStoreError.sharing(.shortGUIDNotFound("no-such-guid"))) {
            try await store.acceptShare(shortGUID: "no-such-guid", as: "_eve")
        }

        // Deleting the zone deletes its share.
        try await store.deleteZone(album)
        #expect(try await store.share(shortGUID: share.shortGUID) == nil)
        #expect(try await store.allShares().isEmpty)
        #expect(try await store.shares(sharedWith: "_bob").isEmpty)
    }

    @Test("A record's parent is a reference in its own zone, admitted in production mode too", arguments: TestEngine.allCases)
    func parentAdmission(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await Self.makeHierarchy(store)
        let saved = try #require(try await store.record(for: Self.id("stop1")))
        #expect(saved.parent == Self.id("day1"))
        var elsewhere = Self.record("x")
        elsewhere.parent = Self.id("trip", ZoneID(zoneName: "Other"))
        await #expect(throws: RecordStoreError.unsupportedValue(
            field: "___parent", recordType: "Item", reason: "a record's parent is in the record's own zone 'Trips', not in 'Other'")) {
            try await store.save([elsewhere])
        }
        await #expect(throws: RecordStoreError.unsupportedValue(field: "___parent", recordType: "Item", reason: "a record is not its own parent")) {
            try await store.save([Self.record("selfish", parent: "selfish")])
        }
        // A store in production mode admits the reserved field into a declared type, and shares.
        let production = try engine.makeStore(mode: .production)
        try await production.define(RecordTypeSchema(name: "Item", fields: [FieldSchema(name: "title", type: .string)]))
        try await production.createZone(Self.trips)
        try await production.save([Self.record("trip"), Self.record("day1", parent: "trip")])
        let share = try await production.saveShare(RecordShare(rootRecordID: Self.id("trip"), owner: "_ada", participants: [
            ShareParticipant(userRecordName: "_bob", permission: .readOnly),
        ]))
        try await production.acceptShare(shortGUID: share.shortGUID, as: "_bob")
        #expect(try await production.sharePermission(of: Self.id("day1"), for: "_bob") == .readOnly)
    }

    @Test("Permissions order and a share's own answers")
    func permissionOrder() {
        #expect(SharePermission.allCases.sorted() == [.none, .readOnly, .readWrite])
        #expect(SharePermission(rawValue: "READ_WRITE") == .readWrite)
        var share = RecordShare(zone: Self.trips, owner: "_ada", publicPermission: .readWrite)
        share.participants = [
            ShareParticipant(userRecordName: "_pub", emailAddress: nil, permission: .readOnly, acceptanceStatus: .accepted, role: .publicUser),
            ShareParticipant(userRecordName: "_bob", emailAddress: nil, permission: .readOnly, acceptanceStatus: .pending, role: .privateUser),
        ]
        #expect(share.permission(for: "_ada") == .readWrite)
        #expect(share.permission(for: "_pub") == .readWrite)  // a public user follows the public permission
        #expect(share.permission(for: "_bob") == nil)
        #expect(share.currentUserParticipant("_bob")?.acceptanceStatus == .pending)
        #expect(ShareParticipant(emailAddress: "A@b.org", permission: .readOnly).isUser("_a", emailAddress: "a@B.org"))
        #expect(!ShareParticipant(userRecordName: "_x", permission: .readOnly).isUser("_a", emailAddress: "a@b.org"))
    }
}

import Foundation
import PredicateLanguage
import RecordStoreCore

extension EngineConformance {
    /// ``StoreBehavior/changeHistory``: changes since a token are the records saved and deleted
    /// since, each once in its latest state; the database's changes name the zone.
    static func checkChangeHistory(_ check: inout BehaviorCheck) async throws(RecordStoreError) {
        let store = check.store
        let databaseStart = try await latestDatabaseToken(store)
        let zone = try await check.makeZone()
        let ids = ["a", "b", "c"].map { RecordID(recordName: $0, zoneID: zone) }
        let empty = try await store.changes(in: zone)
        check.expect(empty.changedRecords.isEmpty && empty.deletedRecords.isEmpty && !empty.moreComing, true, "a new zone's changes are empty")

        _ = try await store.save(zip(ids, ["A", "B", "C"]).map { BehaviorCheck.city($0, $1, 1) })
        let first = try await store.changes(in: zone, since: empty.token)
        check.expect(BehaviorCheck.names(first.changedRecords), ["a", "b", "c"], "the changes of the first save")
        check.expect(first.changedRecords.map { $0["name"] }, [.string("A"), .string("B"), .string("C")], "the changed records' fields")
        check.expect(first.deletedRecords, [], "the deletions of the first save")
        check.expect(first.moreComing, false, "moreComing after the first save")

        guard var b = try await store.record(for: ids[1]) else { return check.fail("b is not stored") }
        b["population"] = .int(2)
        _ = try await store.save([b])
        try await store.delete([ids[0]])
        let second = try await store.changes(in: zone, since: first.token)
        check.expect(BehaviorCheck.names(second.changedRecords), ["b"], "the records changed since the first token")
        check.expect(second.changedRecords.first?["population"], .int(2), "the changed record's latest state")
        check.expect(second.deletedRecords, [DeletedRecord(recordID: ids[0], recordType: cityType)], "the records deleted since the first token")
        let none = try await store.changes(in: zone, since: second.token)
        check.expect(none.changedRecords.isEmpty && none.deletedRecords.isEmpty, true, "no changes since the latest token")

        let whole = try await store.changes(in: zone)
        check.expect(BehaviorCheck.names(whole.changedRecords), ["c", "b"], "the zone's whole history, in the order of its changes")
        check.expect(whole.deletedRecords.map(\.recordID), [ids[0]], "the zone's whole history's deletions")
        let keys = try await store.changes(in: zone, since: first.token, desiredKeys: ["name"])
        check.expect(keys.changedRecords.map { $0.fields.keys.sorted() }, [["name"]], "the changed records' fields with desiredKeys")
        let otherType = try await store.changes(in: zone, since: first.token, recordTypes: ["ConformanceNoSuchType"])
        check.expect(otherType.changedRecords.isEmpty && otherType.deletedRecords.isEmpty, true, "the changes of a record type never saved")

        let database = try await databaseChanges(store, since: databaseStart)
        check.expect(database.changed.contains(zone), true, "the database's changes name the changed zone")
        try await store.deleteZone(zone)
        check.forget(zone)
        let afterDeletion = try await databaseChanges(store, since: database.token)
        check.expect(afterDeletion.deleted.contains(zone), true, "the database's changes name the deleted zone")
        await check.expectError("the changes of a deleted zone", { if case .zoneNotFound(zone) = $0 { true } else { false } }) {
            () async throws(RecordStoreError) in try await store.changes(in: zone, since: second.token)
        }
    }

    /// ``StoreBehavior/changeHistoryPaging``: a limit pages the changes, `moreComing` says when
    /// more wait, and the pages together are every change once.
    static func checkChangeHistoryPaging(_ check: inout BehaviorCheck) async throws(RecordStoreError) {
        let store = check.store
        let zone = try await check.makeZone()
        let ids = (1...5).map { RecordID(recordName: "r\($0)", zoneID: zone) }
        _ = try await store.save(ids.map { BehaviorCheck.city($0, $0.recordName.uppercased(), 1) })
        var token: ChangeToken?
        var pages: [[String]] = []
        var moreComing: [Bool] = []
        for _ in 0..<5 {
            let page = try await store.changes(in: zone, since: token, limit: 2)
            pages.append(BehaviorCheck.names(page.changedRecords))
            moreComing.append(page.moreComing)
            token = page.token
            if !page.moreComing { break }
        }
        check.expect(pages, [["r1", "r2"], ["r3", "r4"], ["r5"]], "the pages of two changes")
        check.expect(moreComing, [true, true, false], "moreComing of each page")

        guard var r3 = try await store.record(for: ids[2]) else { return check.fail("r3 is not stored") }
        r3["population"] = .int(3)
        _ = try await store.save([r3])
        try await store.delete([ids[0], ids[1]])
        let next = try await store.changes(in: zone, since: token, limit: 2)
        let rest = try await store.changes(in: zone, since: next.token, limit: 2)
        check.expect(next.moreComing, true, "moreComing of the first page after the update and deletions")
        check.expect(rest.moreComing, false, "moreComing of the last page")
        check.expect(BehaviorCheck.names(next.changedRecords + rest.changedRecords), ["r3"], "the records changed, over two pages")
        check.expect((next.deletedRecords + rest.deletedRecords).map(\.recordID.recordName), ["r1", "r2"], "the records deleted, over two pages")
        check.expect(next.changedRecords.count + next.deletedRecords.count, 2, "the changes of a page of two")
    }

    /// The database token after every change so far.
    private static func latestDatabaseToken(_ store: Store) async throws(RecordStoreError) -> ChangeToken {
        try await databaseChanges(store, since: nil).token
    }

    /// Every zone changed and deleted since a token, over as many pages as it takes, and the token after them.
    private static func databaseChanges(_ store: Store, since token: ChangeToken?) async throws(RecordStoreError) -> (changed: [ZoneID], deleted: [ZoneID], token: ChangeToken) {
        var token = token
        var changed: [ZoneID] = [], deleted: [ZoneID] = []
        while true {
            let page = try await store.databaseChanges(since: token)
            changed += page.changedZones
            deleted += page.deletedZones
            token = page.token
            if !page.moreComing { return (changed, deleted, page.token) }
        }
    }
}

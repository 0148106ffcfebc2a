import Foundation
import PredicateLanguage
import RecordStoreCore

extension EngineConformance {
    /// ``StoreBehavior/saves``: saved records read back as saved, updates take new change
    /// tags, deletions remove records (and ignore identifiers that are not stored), and a save
    /// that names its author stamps it (``checkAuthors(_:zone:)``).
    static func checkSaves(_ check: inout BehaviorCheck) async throws(RecordStoreError) {
        let store = check.store
        let zone = try await check.makeZone()
        let a = RecordID(recordName: "a", zoneID: zone), b = RecordID(recordName: "b", zoneID: zone)
        let saved = try await store.save([BehaviorCheck.city(a, "Alpha", 1), BehaviorCheck.city(b, "Beta", 2)])
        check.expect(BehaviorCheck.names(saved), ["a", "b"], "the saved records")
        check.expect(saved.allSatisfy { $0.recordChangeTag != nil && $0.creationDate != nil && $0.modificationDate != nil }, true,
                     "every saved record has a change tag, a creation and a modification date")
        let read = try await store.record(for: a)
        check.expect(read?["name"], .string("Alpha"), "a's name read back")
        check.expect(read?["population"], .int(1), "a's population read back")
        check.expect(read?.recordChangeTag, saved.first?.recordChangeTag, "a's change tag read back")

        guard var update = saved.first else { return }
        update["population"] = .int(10)
        let updated = try await store.save([update])
        check.expect(updated.first?.recordChangeTag != saved.first?.recordChangeTag, true, "an update gives a new change tag")
        check.expect(try await store.record(for: a)?["population"], .int(10), "a's population after the update")
        let inZone = try await store.records(ofType: cityType, matching: .truePredicate, sorts: [Sort("name")], zone: zone)
        check.expect(BehaviorCheck.names(inZone), ["a", "b"], "the zone's records by name")

        try await store.delete([a, RecordID(recordName: "never-saved", zoneID: zone)])
        check.expect(try await store.record(for: a) == nil, true, "a deleted record is gone")
        check.expect(try await store.count(ofType: cityType, matching: .truePredicate, zone: zone), 1, "the zone's count after the deletion")
        let results = try await store.records(for: [a, b])
        check.expect(results[b].flatMap { try? $0.get()["name"] }, .string("Beta"), "records(for:) finds b")
        if case .failure(.recordNotFound(a))? = results[a] {} else { check.fail("records(for:) answers \(String(describing: results[a])) for the deleted a, not recordNotFound") }
        try await checkAuthors(&check, zone: zone)
    }

    /// The authors of saves: the user a save names is the last modifier of what it saves and
    /// the creator of what it creates; an update keeps the creator; both are metadata that
    /// predicates and sorts name. (The zone holds b, saved without an author.)
    private static func checkAuthors(_ check: inout BehaviorCheck, zone: ZoneID) async throws(RecordStoreError) {
        let store = check.store
        let b = RecordID(recordName: "b", zoneID: zone), c = RecordID(recordName: "c", zoneID: zone), d = RecordID(recordName: "d", zoneID: zone)
        let created = try await store.modify(
            saving: [BehaviorCheck.city(c, "Gamma", 3), BehaviorCheck.city(d, "Delta", 4)], deleting: [], author: "_ada")
        guard case .success(let gamma)? = created.saveResults[c] else { return check.fail("the save by _ada answers \(created.errors)") }
        check.expect(gamma.creatorUserRecordName, "_ada", "the creator of a record saved by _ada")
        check.expect(gamma.lastModifiedUserRecordName, "_ada", "the last modifier of a record saved by _ada")
        var changed = gamma
        changed["population"] = .int(30)
        let updated = try await store.modify(saving: [changed], deleting: [], author: "_grace")
        check.expect(updated.isSuccess, true, "the update by _grace succeeds")
        let read = try await store.record(for: c)
        check.expect(read?.creatorUserRecordName, "_ada", "an update keeps the creator")
        check.expect(read?.lastModifiedUserRecordName, "_grace", "an update names its author the last modifier")
        let unnamed = try await store.record(for: b)
        check.expect(unnamed?.creatorUserRecordName, nil, "a record saved without an author has no creator")

        let predicate: FormatPredicate
        do { predicate = try FormatPredicate(format: "creatorUserRecordName == %@", argumentArray: [.string("_ada")]) } catch {
            return check.fail("the creator predicate does not parse: \(error)")
        }
        let byAda = try await store.records(ofType: cityType, matching: predicate, sorts: [Sort("name")], zone: zone)
        check.expect(BehaviorCheck.names(byAda), ["d", "c"], "the records _ada created, by name")
        let byModifier = try await store.records(
            ofType: cityType, matching: .truePredicate, sorts: [Sort("lastModifiedUserRecordName", ascending: false), Sort("name")], zone: zone)
        check.expect(BehaviorCheck.names(byModifier), ["c", "d", "b"], "the records by last modifier, descending (no author last)")
    }

    /// ``StoreBehavior/conflicts``: stale change tags and new records over stored ones are
    /// conflicts; a failed save applies nothing; a deletion's expected change tag is checked.
    static func checkConflicts(_ check: inout BehaviorCheck) async throws(RecordStoreError) {
        let store = check.store
        let zone = try await check.makeZone()
        let x = RecordID(recordName: "x", zoneID: zone), y = RecordID(recordName: "y", zoneID: zone)
        guard let first = try await store.save([BehaviorCheck.city(x, "X", 1)]).first else { return check.fail("the first save returned no record") }
        var stale = first
        stale["population"] = .int(2)
        guard let second = try await store.save([stale]).first else { return check.fail("the update returned no record") }
        stale["population"] = .int(3)
        let isConflictOnX: (RecordStoreError) -> Bool = { if case .conflict(x, _, _) = $0 { true } else { false } }
        await check.expectError("saving with a stale change tag", isConflictOnX) { () async throws(RecordStoreError) in try await store.save([stale]) }
        await check.expectError("saving a new record over a stored one", isConflictOnX) { () async throws(RecordStoreError) in
            try await store.save([BehaviorCheck.city(x, "X", 4)])
        }
        await check.expectError("a save of a new record and a stale one", isConflictOnX) { () async throws(RecordStoreError) in
            try await store.save([BehaviorCheck.city(y, "Y", 5), stale])
        }
        check.expect(try await store.record(for: y) == nil, true, "the failed save applied none of its records")
        let stored = try await store.record(for: x)
        check.expect(stored?["population"], .int(2), "the stored x after the conflicts")
        check.expect(stored?.recordChangeTag, second.recordChangeTag, "the stored x's change tag after the conflicts")

        let refused = try await store.modify(saving: [], deleting: [x], expectedChangeTags: [x: first.recordChangeTag ?? ""])
        if case .failure(.conflict(x, _, _))? = refused.deleteResults[x] {} else {
            check.fail("deleting x with its first change tag answered \(String(describing: refused.deleteResults[x])), not a conflict")
        }
        check.expect(try await store.record(for: x) != nil, true, "x is still stored after the refused deletion")
        let accepted = try await store.modify(saving: [], deleting: [x], expectedChangeTags: [x: second.recordChangeTag ?? ""])
        check.expect(accepted.isSuccess, true, "deleting x with its current change tag succeeds")
        check.expect(try await store.record(for: x) == nil, true, "x is gone after the deletion")
    }

    /// ``StoreBehavior/savePolicies``: `.ifServerRecordUnchanged` checks change tags,
    /// `.changedKeys` merges, `.allKeys` replaces.
    static func checkSavePolicies(_ check: inout BehaviorCheck) async throws(RecordStoreError) {
        let store = check.store
        let zone = try await check.makeZone()
        let p = RecordID(recordName: "p", zoneID: zone), q = RecordID(recordName: "q", zoneID: zone)
        _ = try await store.save([BehaviorCheck.city(p, "P", 1)])
        await check.expectError("saving a record without its change tag under .ifServerRecordUnchanged", {
            if case .conflict(p, _, _) = $0 { true } else { false }
        }) { () async throws(RecordStoreError) in
            try await store.save([Record(recordType: cityType, recordID: p, fields: ["population": .int(2)])], policy: .ifServerRecordUnchanged)
        }
        _ = try await store.save([Record(recordType: cityType, recordID: p, fields: ["population": .int(2)])], policy: .changedKeys)
        let merged = try await store.record(for: p)
        check.expect(merged?["name"], .string("P"), ".changedKeys keeps the fields it was not given")
        check.expect(merged?["population"], .int(2), ".changedKeys writes the fields it was given")
        _ = try await store.save([Record(recordType: cityType, recordID: p, fields: ["name": .string("P2")])], policy: .allKeys)
        let replaced = try await store.record(for: p)
        check.expect(replaced?["name"], .string("P2"), ".allKeys writes the fields it was given")
        check.expect(replaced?["population"], nil, ".allKeys drops the fields it was not given")
        _ = try await store.save([BehaviorCheck.city(q, "Q", 7)], policy: .allKeys)
        check.expect(try await store.record(for: q)?["population"], .int(7), ".allKeys inserts a record not stored")
    }
}

import Foundation
import PredicateLanguage
import RecordStoreCore

extension EngineConformance {
    /// ``StoreBehavior/zones``: created (twice is once), listed in order, deleted with their
    /// records; the default zone stays, unknown zones are not found.
    static func checkZones(_ check: inout BehaviorCheck) async throws(RecordStoreError) {
        let store = check.store
        let zoneB = try await check.makeZone("b")
        let zoneA = try await check.makeZone("a")
        try await store.createZone(zoneA)
        let listed = try await store.zones()
        check.expect(listed.first, .default, "the first zone listed")
        check.expect(listed.filter { $0 == zoneA || $0 == zoneB }, [zoneA, zoneB], "the check's zones, each once and by name")
        let others = Array(listed.dropFirst())
        let sorted = others.sorted { $0.zoneName.utf8.lexicographicallyPrecedes($1.zoneName.utf8) }
        check.expect(others.map(\.zoneName), sorted.map(\.zoneName), "the zones after the default zone, by name")

        let id = RecordID(recordName: "r", zoneID: zoneA)
        _ = try await store.save([BehaviorCheck.city(id, "R", 1)])
        try await store.deleteZone(zoneA)
        check.forget(zoneA)
        let after = try await store.zones()
        check.expect(after.contains(zoneA), false, "a deleted zone is listed")
        check.expect(after.contains(zoneB), true, "the other zone is listed after a deletion")
        let isNotFound: (RecordStoreError) -> Bool = { if case .zoneNotFound(zoneA) = $0 { true } else { false } }
        await check.expectError("deleting a deleted zone", isNotFound) { () async throws(RecordStoreError) in try await store.deleteZone(zoneA) }
        await check.expectError("counting in a deleted zone", isNotFound) { () async throws(RecordStoreError) in
            try await store.count(ofType: cityType, matching: .truePredicate, zone: zoneA)
        }
        await check.expectError("saving into a deleted zone", isNotFound) { () async throws(RecordStoreError) in
            try await store.save([BehaviorCheck.city(id, "R", 2)])
        }
        await check.expectError("deleting the default zone", { if case .cannotDeleteDefaultZone = $0 { true } else { false } }) {
            () async throws(RecordStoreError) in try await store.deleteZone(.default)
        }
        let recreated = try await check.makeZone("a")
        check.expect(try await store.count(ofType: cityType, matching: .truePredicate, zone: recreated), 0,
                     "a zone created again after its deletion holds none of its former records")
    }
}

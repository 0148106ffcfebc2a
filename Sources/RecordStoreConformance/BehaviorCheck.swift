import Foundation
import PredicateLanguage
import RecordStoreCore

/// The state of one behaviour check: the store under test, the zones the check made (deleted
/// when it ends), and the differences found so far, each a sentence naming the behaviour.
///
/// ```swift
/// var check = BehaviorCheck(.zones, store: store)
/// let zone = try await check.makeZone("a")
/// check.expect(try await store.zones().contains(zone), true, "the new zone is listed")
/// ```
struct BehaviorCheck {
    /// The behaviour checked.
    let behavior: StoreBehavior
    /// The store under test.
    let store: Store
    /// What makes this check's zone names unique in a store other checks share.
    let unique = UUID().uuidString.prefix(8).lowercased()
    /// The zones this check created and has not deleted.
    private(set) var zones: [ZoneID] = []
    /// Each difference found, as a sentence.
    private(set) var differences: [String] = []

    init(_ behavior: StoreBehavior, store: Store) {
        self.behavior = behavior
        self.store = store
    }

    /// A zone name of this check's own: `conformance-<behaviour>-<unique>-<suffix>`.
    func zoneID(_ suffix: String) -> ZoneID {
        ZoneID(zoneName: "conformance-\(behavior.rawValue)-\(unique)-\(suffix)")
    }

    /// Creates a zone of this check's own, remembered for ``cleanUp()``.
    mutating func makeZone(_ suffix: String = "zone") async throws(RecordStoreError) -> ZoneID {
        let zone = zoneID(suffix)
        try await store.createZone(zone)
        zones.append(zone)
        return zone
    }

    /// Forgets a zone the check deleted itself.
    mutating func forget(_ zone: ZoneID) {
        zones.removeAll { $0 == zone }
    }

    /// Records a difference unless `actual` equals `expected`.
    mutating func expect<T: Equatable>(_ actual: T, _ expected: T, _ what: String) {
        if actual != expected { fail("\(what): got \(actual), expected \(expected)") }
    }

    /// Records a difference.
    mutating func fail(_ what: String) {
        differences.append("behaviour \(behavior.rawValue): \(what)")
    }

    /// Records a difference unless `body` throws an error that `matches` accepts; returns the error.
    @discardableResult
    mutating func expectError<T>(
        _ what: String, _ matches: (RecordStoreError) -> Bool, _ body: () async throws(RecordStoreError) -> T
    ) async -> RecordStoreError? {
        do {
            _ = try await body()
            fail("\(what): succeeded, expected an error")
            return nil
        } catch {
            if !matches(error) { fail("\(what): threw \(error), not the error expected") }
            return error
        }
    }

    /// Deletes the zones the check made (and did not delete itself).
    mutating func cleanUp() async {
        for zone in zones {
            do throws(RecordStoreError) {
                try await store.deleteZone(zone)
            } catch {
                fail("deleting the check's zone \(zone.zoneName) threw \(error)")
            }
        }
        zones = []
    }

    /// A `City` record of the check: a name and a population, the fields the cities have.
    static func city(_ id: RecordID, _ name: String, _ population: Int64) -> Record {
        Record(recordType: EngineConformance.cityType, recordID: id, fields: ["name": .string(name), "population": .int(population)])
    }

    /// The record names of records, in order.
    static func names(_ records: some Sequence<Record>) -> [String] {
        records.map(\.recordID.recordName)
    }
}

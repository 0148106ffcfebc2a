import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@testable import RecordStoreCore

/// A sort by a field whose values the evaluator does not order (a location, a reference) is
/// refused on every engine before any SQL runs: no engine orders by the stored text of such a
/// field (which PostgreSQL no longer keeps for most locations). A sort by the distance from a
/// point is how locations sort.
@Suite("Sorts by locations and references are refused on every engine")
struct UnorderedTypeSortTests {
    static func records() -> [Record] {
        let places: [(String, Location?, String?)] = [
            ("d", Location(latitude: 10, longitude: 10), "x"), ("a", nil, "y"),
            ("f", Location(latitude: -5, longitude: 3, altitude: 2), nil), ("b", Location(latitude: 80, longitude: -170), "a"),
        ]
        return places.map { name, location, owner in
            var fields: [String: Value] = ["label": .string(name.uppercased())]
            if let location { fields["place"] = .location(location) }
            if let owner { fields["owner"] = .reference(Reference(recordName: owner)) }
            return Record(recordType: "Spot", recordID: RecordID(recordName: name), fields: fields)
        }
    }

    @Test("sorting by a location or a reference is an error naming the field; by distance, nil first then nearest", arguments: TestEngine.allCases)
    func refusedButDistanceSorts(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        _ = try await store.save(Self.records())
        for key in ["place", "owner"] {
            for ascending in [true, false] {
                let error = await #expect(throws: RecordStoreError.self, "\(engine) \(key)") {
                    _ = try await store.records(ofType: "Spot", matching: .truePredicate, sorts: [Sort(key, ascending: ascending)])
                }
                #expect(error.map { "\($0)" }?.contains("'\(key)'") == true, "\(engine) \(key): \(String(describing: error))")
            }
        }
        let nearest = try await store.records(
            ofType: "Spot", matching: .truePredicate, sorts: [Sort.distance(from: Location(latitude: 9, longitude: 9), key: "place")])
        #expect(nearest.map(\.recordID.recordName) == ["a", "d", "f", "b"], "\(engine)")
    }
}

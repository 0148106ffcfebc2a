import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@testable import RecordStoreCore

/// A sort by a field whose values the evaluator does not order among themselves (a location, a
/// reference): nil comes first ascending and last descending, and every other value ties, so the
/// record name decides (`RecordOrdering.compare`). SQL used to order such fields by their stored
/// text, which disagreed with the memory engine; PostgreSQL no longer stores most locations'
/// text at all. Keyset pages follow the same order.
@Suite("Sorts by locations and references order only nil against the rest")
struct UnorderedTypeSortTests {
    static func records() -> [Record] {
        let places: [(String, Location?, String?)] = [
            ("d", Location(latitude: 10, longitude: 10), "x"), ("a", nil, "y"), ("f", Location(latitude: -5, longitude: 3, altitude: 2), nil),
            ("b", Location(latitude: 80, longitude: -170), "a"), ("e", nil, nil), ("c", Location(latitude: 0, longitude: 0), "z"),
        ]
        return places.map { name, location, owner in
            var fields: [String: Value] = ["label": .string(name.uppercased())]
            if let location { fields["place"] = .location(location) }
            if let owner { fields["owner"] = .reference(Reference(recordName: owner)) }
            return Record(recordType: "Spot", recordID: RecordID(recordName: name), fields: fields)
        }
    }

    /// The record names of every page of `pageSize`, in order.
    static func pages(_ store: Store, _ sorts: [Sort], pageSize: Int) async throws -> [String] {
        let query = try RecordQuery(recordType: "Spot", predicate: .truePredicate, sorts: sorts)
        var batch = try await store.records(matching: query, resultsLimit: pageSize)
        var names = batch.records.map(\.recordID.recordName)
        while let cursor = batch.cursor {
            batch = try await store.records(continuingMatchFrom: cursor, resultsLimit: pageSize)
            names += batch.records.map(\.recordID.recordName)
        }
        return names
    }

    @Test("nil first ascending, last descending, ties by record name, in one query and in pages", arguments: TestEngine.allCases)
    func nilAgainstTheRest(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        _ = try await store.save(Self.records())
        let expected: [(Sort, [String])] = [
            (Sort("place"), ["a", "e", "b", "c", "d", "f"]),
            (Sort("place", ascending: false), ["b", "c", "d", "f", "a", "e"]),
            (Sort("owner"), ["e", "f", "a", "b", "c", "d"]),
            (Sort("owner", ascending: false), ["a", "b", "c", "d", "e", "f"]),
        ]
        for (sort, names) in expected {
            let all = try await store.records(ofType: "Spot", matching: .truePredicate, sorts: [sort])
            #expect(all.map(\.recordID.recordName) == names, "\(engine) \(sort)")
            for pageSize in [1, 2, 4] {
                #expect(try await Self.pages(store, [sort], pageSize: pageSize) == names, "\(engine) \(sort) pages of \(pageSize)")
            }
        }
        // A later key still orders the ties of a location.
        let thenLabel = try await store.records(ofType: "Spot", matching: .truePredicate, sorts: [Sort("place"), Sort("label", ascending: false)])
        #expect(thenLabel.map(\.recordID.recordName) == ["e", "a", "f", "d", "c", "b"], "\(engine)")
        #expect(try await Self.pages(store, [Sort("place"), Sort("label", ascending: false)], pageSize: 2) == ["e", "a", "f", "d", "c", "b"], "\(engine)")
    }
}

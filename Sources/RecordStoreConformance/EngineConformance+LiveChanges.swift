import Foundation
import PredicateLanguage
import RecordStoreCore

extension EngineConformance {
    /// How long ``StoreBehavior/liveChanges`` waits for an observation's elements.
    static let liveChangesTimeLimit: Duration = .seconds(30)

    /// ``StoreBehavior/liveChanges``: an observed query yields its results, then the results a
    /// save changes (a record inserted; a record that does not match changes nothing), then a
    /// deletion's.
    static func checkLiveChanges(_ check: inout BehaviorCheck) async throws(RecordStoreError) {
        let store = check.store
        let zone = try await check.makeZone()
        let l0 = RecordID(recordName: "l0", zoneID: zone), l1 = RecordID(recordName: "l1", zoneID: zone)
        let l2 = RecordID(recordName: "l2", zoneID: zone)
        _ = try await store.save([BehaviorCheck.city(l1, "L1", 100)])
        let predicate: FormatPredicate
        do {
            predicate = try FormatPredicate(format: "population >= 100")
        } catch {
            return check.fail("the observed predicate did not parse: \(error)")
        }
        let query = try RecordQuery(recordType: cityType, predicate: predicate, sorts: [Sort("name")])
        let observation = store.observe(query, inZone: zone)
        let elements = await withTaskGroup(of: Result<[LiveElement], any Error>?.self) { group in
            group.addTask {
                var seen: [LiveElement] = []
                do {
                    for try await change in observation {
                        seen.append(LiveElement(kind: change.kind, names: BehaviorCheck.names(change.records)))
                        switch seen.count {
                        case 1: _ = try await store.save([BehaviorCheck.city(l2, "L2", 200), BehaviorCheck.city(l0, "L0", 5)])
                        case 2: try await store.delete([l1])
                        default: return .success(seen)
                        }
                    }
                    return .success(seen)
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: liveChangesTimeLimit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        switch elements {
        case nil:
            check.fail("the observation did not yield three elements within \(liveChangesTimeLimit)")
        case .failure(let error)?:
            check.fail("the observation threw \(error)")
        case .success(let elements)?:
            check.expect(elements.map(\.names), [["l1"], ["l1", "l2"], ["l2"]], "the observed results after each commit")
            check.expect(elements.first?.kind, .initial, "the first element's kind")
            check.expect(elements.dropFirst().allSatisfy { $0.kind != .initial }, true, "the later elements are changes")
        }
    }
}

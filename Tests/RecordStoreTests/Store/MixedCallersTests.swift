import Dispatch
import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Synchronous ``Store`` calls made on cooperative threads (a synchronous test, a synchronous
/// helper inside a task) block those threads. `async` reads running beside them must not need a
/// cooperative thread while they hold a SQLite reader, or the two wait for each other for ever.
@Suite("Synchronous and async callers at once")
struct MixedCallersTests {
    @Test("Synchronous calls on every cooperative thread and async reads at once all finish", .timeLimit(.minutes(10)))
    func synchronousAndAsyncReadsFinish() async throws {
        let store = try Self.storeOfTwoHundredItems()
        // If the callers deadlock, no cooperative thread is left to enforce the time limit: a
        // Dispatch timer ends the process with a message rather than letting the run hang.
        let finished = LockedFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(120)) {
            guard !finished.isSet else { return }
            print("MixedCallersTests: synchronous and async readers deadlocked; ending the test process")
            exit(1)
        }
        defer { finished.set() }
        let predicate = try FormatPredicate(format: "n >= 100")
        // Many more tasks than cooperative threads and than GRDB's readers (5), half of them
        // holding their thread in a synchronous call.
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<256 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return try Self.countSynchronously(in: store, matching: predicate)
                    }
                    return try await store.count(ofType: "Item", matching: predicate)
                }
            }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            return counts
        }
        #expect(counts == Array(repeating: 100, count: 256))
    }

    /// A store of 200 items, `n` from 0 to 199, made synchronously.
    private static func storeOfTwoHundredItems() throws -> Store {
        let store = try Store.open(path: TestEngine.temporaryDatabasePath("mixed-callers"))
        try store.save((0..<200).map { index in
            Record(recordType: "Item", recordID: RecordID(recordName: "item\(index)"), fields: ["n": .int(Int64(index))])
        })
        return store
    }

    /// A synchronous helper, as an application has: its thread waits for the store.
    private static func countSynchronously(in store: Store, matching predicate: FormatPredicate) throws -> Int {
        try store.count(ofType: "Item", matching: predicate)
    }
}

/// A flag set once, read from any thread.
private final class LockedFlag: Sendable {
    private let state = LockedState(false)

    var isSet: Bool { state.withLock { $0 } }

    func set() { state.withLock { $0 = true } }
}

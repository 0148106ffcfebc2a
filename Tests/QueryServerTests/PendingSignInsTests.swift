import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// Sign-ins on their way through the provider: taken once, and removed when abandoned.
@Suite struct PendingSignInsTests {
    static func signIn(_ state: String, expires: Date) -> PendingSignIns.SignIn {
        PendingSignIns.SignIn(
            state: state, verifier: "verifier-\(state)", nonce: "nonce-\(state)", container: "iCloud.com.example.notes",
            redirectURI: "http://127.0.0.1/auth/callback", delivery: .popup(origin: "http://127.0.0.1"), keepsSignedIn: false, expires: expires)
    }

    static func stored(_ store: Store) async throws -> [String] {
        try await store.records(ofType: PendingSignIns.recordType, matching: .truePredicate, sorts: [Sort("recordName")], zone: PendingSignIns.zone)
            .map(\.recordID.recordName)
    }

    @Test("A sign-in is taken once; sign-ins left past their lifetime are removed", arguments: TestEngine.allCases)
    func takenOnceAndPruned(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let pending = PendingSignIns(store: store)
        let a = String(repeating: "a", count: 32), b = String(repeating: "b", count: 32), c = String(repeating: "c", count: 32)
        // The clock the checks are given is the test's own, never the time it happens to run at:
        // a test starved on a loaded machine still decides alike.
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let expires = start.addingTimeInterval(PendingSignIns.lifetime)
        try await pending.save(Self.signIn(a, expires: expires))
        try await pending.save(Self.signIn(b, expires: expires))
        try await pending.save(Self.signIn(c, expires: expires))
        #expect(try await Self.stored(store) == [a, b, c])

        #expect(try await pending.take(a, now: start) == Self.signIn(a, expires: expires))
        #expect(try await pending.take(a, now: start) == nil)
        // Past its expiry, a sign-in is not taken.
        #expect(try await pending.take(c, now: expires) == nil)
        #expect(try await Self.stored(store) == [b])

        // Within their lifetime (saved after `start`) they stay; past it, they go.
        try await pending.removeAbandoned(now: start.addingTimeInterval(PendingSignIns.lifetime - 1))
        #expect(try await Self.stored(store) == [b])
        try await pending.removeAbandoned(now: Date().addingTimeInterval(PendingSignIns.lifetime + 1))
        #expect(try await Self.stored(store) == [])
        #expect(try await pending.take(b, now: start) == nil)
    }
}

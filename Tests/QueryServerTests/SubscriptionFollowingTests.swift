import EngineTestSupport
import Foundation
@testable import QueryServer
import RecordStore
import RecordStorePostgres
import Testing

/// A server process hears of subscriptions another process saves in a namespace it has not served
/// yet, and starts keeping that namespace's notifications (so that a client may later resume there).
@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"), .timeLimit(.minutes(10)))
struct SubscriptionFollowingTests {
    @Test func aNamespaceSubscribedElsewhereGetsItsHub() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let writer = CloudKitService(store: try await Store.open(url: url))
        let follower = CloudKitService(store: try await Store.open(url: url))
        try await follower.startNotifications()
        let namespace = Namespace(environment: .development, database: .private(user: "key1"))
        #expect(await !follower.notificationHubs.hasHub(for: namespace))
        _ = try await writer.modifySubscriptions(["operations": [["operationType": "create", "subscription": SubscriptionsTests.bigCities]]], in: namespace)
        // The follower hears the commit (LISTEN) and starts the hub; wait for it, a bounded while.
        var started = false
        for _ in 0..<500 where !started {
            started = await follower.notificationHubs.hasHub(for: namespace)
            if !started { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(started)
        #expect(await !follower.notificationHubs.hasHub(for: Namespace(environment: .production, database: .public)))
    }
}

import EngineTestSupport
import Foundation
@testable import QueryServer
import RecordStore
import RecordStorePostgres
@_spi(StorageEngine) import RecordStoreSQL
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

    /// The zones each listening backend of the store names (`zones|prefixes`, `*` for every
    /// zone), sorted; `development` for its development sibling's.
    static func listenedZones(url: String, development: Bool = false) async throws -> [String] {
        var schema = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "schema" }?.value)
        if development { schema += "_development" }
        let value = try await PostgresAdministration.value(url: url, sql: """
            SELECT string_agg(coalesce(array_to_string(zones, ','), '*') || '|' || array_to_string(prefixes, ','), ';' ORDER BY 1)
                FROM "\(schema)"."$listeners"
            """)
        guard case .text(let rows) = value else { return [] }
        return rows.split(separator: ";").map(String.init).sorted()
    }

    @Test("A served store's writers notify only for the zones its subscriptions watch")
    func servedStoresListenForSubscribedZonesOnly() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let server = CloudKitService(store: try await Store.open(url: url))
        try await server.startNotifications()
        // No subscription yet: the server hears the subscriptions' zones alone.
        let before = try await Self.listenedZones(url: url)
        #expect(before == ["|subscriptions/"])
        let namespace = Namespace(environment: .development, database: .private(user: "key1"))
        _ = try await server.modifySubscriptions(["operations": [["operationType": "create", "subscription": SubscriptionsTests.bigCities]]], in: namespace)
        // The namespace's hub names its subscriptions' zone and the subscription's zone.
        let listened = try await Self.listenedZones(url: url, development: true)
        #expect(listened == ["development/private/key1/_defaultZone,subscriptions/development/private/key1/|subscriptions/"])
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing
import TestSupport

/// Sharing end to end, driven by a client written apart from the server
/// (`Clients/sharing_client.py`): four users signed in through an OpenID Connect provider
/// (`Clients/oidc_provider.py`); on SQLite through one server, on PostgreSQL through two servers
/// of one store, each request going to the other.
@Suite(.enabled(if: PythonClient.python != nil || PostgresTestServer.isRequired, "QUERY_TEST_PYTHON is not set (.ci/run makes a virtual environment)"))
struct SharingClientTests {
    static let apiToken = "trips-web-token"
    static let appOrigin = "https://trips.example"
    static let container = "iCloud.com.example.trips"

    /// Runs the client against servers over `stores`; its steps by name.
    static func scenario(stores: [Store]) async throws -> [String: JSONValue] {
        let python = try #require(PythonClient.python, "CI is set, so QUERY_TEST_PYTHON must name the virtual environment's python")
        let (provider, issuer, served) = try await SignInTests.provider(clientID: "query-trips", apiToken: Self.apiToken, appOrigin: Self.appOrigin)
        defer { provider.stop() }
        let run: @Sendable ([Int]) async throws -> (Int32, String) = { ports in
            try await ChildProcess.run(python, [
                SignInTests.clients.appendingPathComponent("sharing_client.py").path, issuer, Self.apiToken, Self.container, Self.appOrigin,
            ] + ports.map { "http://127.0.0.1:\($0)" })
        }
        let (status, output): (Int32, String)
        if stores.count == 2 {
            (status, output) = try await ServerHarness.withServer(store: stores[0], configuration: served) { one in
                try await ServerHarness.withServer(store: stores[1], configuration: served) { other in try await run([one.port, other.port]) }
            }
        } else {
            (status, output) = try await ServerHarness.withServer(store: stores[0], configuration: served) { server in try await run([server.port]) }
        }
        #expect(status == 0, "the sharing client failed:\n\(output.suffix(3000))")
        var steps: [String: JSONValue] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("{") {
            let entry = try JSONValue(parsing: Array(line.utf8))
            steps[entry["step"]?.stringValue ?? ""] = entry
        }
        #expect(steps["done"] != nil, "the client stopped early:\n\(output.suffix(3000))")
        return steps
    }

    /// Checks every step of the scenario.
    static func check(_ steps: [String: JSONValue]) throws {
        func body(_ step: String) -> JSONValue? { steps[step]?["body"] }
        func status(_ step: String) -> Int64? { steps[step]?["status"]?.integerValue }
        func names(_ step: String) -> [String] { body(step)?["records"]?.arrayValue?.compactMap { $0["recordName"]?.stringValue } ?? [] }
        func firstResult(_ step: String) -> JSONValue? { body(step)?["results"]?.arrayValue?.first }
        let users = try #require(steps["users"]?["users"])
        let ada = try #require(users["ada"]?.stringValue)
        let carol = try #require(users["carol"]?.stringValue)

        #expect(names("ada-records") == ["paris", "louvre", "notre-dame", "diary"])
        let share = try #require(body("ada-share")?["records"]?.arrayValue?.first)
        #expect(share["recordType"]?.stringValue == "cloudkit.share")
        #expect(share["participants"]?.arrayValue?.map { $0["userIdentity"]?["lookupInfo"]?["emailAddress"]?.stringValue ?? "owner" }
            == ["owner", "bob@example.org", "carol@example.org"])

        let resolved = try #require(firstResult("bob-resolve"))
        #expect(resolved["rootRecordName"]?.stringValue == "paris")
        #expect(resolved["rootRecord"]?["fields"]?["title"]?["value"]?.stringValue == "Paris")
        #expect(resolved["ownerIdentity"]?["userRecordName"]?.stringValue == ada)
        #expect(resolved["participantStatus"]?.stringValue == "PENDING")
        #expect(resolved["containerIdentifier"]?.stringValue == Self.container)
        #expect(firstResult("bob-accept")?["participantStatus"]?.stringValue == "ACCEPTED")
        #expect(firstResult("bob-accept")?["participantPermission"]?.stringValue == "READ_ONLY")
        #expect(firstResult("carol-accept")?["participantPermission"]?.stringValue == "READ_WRITE")

        #expect(body("bob-zones")?["zones"]?.arrayValue?.map { "\($0["zoneID"]?["zoneName"]?.stringValue ?? "")@\($0["zoneID"]?["ownerRecordName"]?.stringValue ?? "")" }
            == ["Trips@\(ada)"])
        #expect(names("bob-page-1") == ["louvre"])
        #expect(body("bob-page-1")?["continuationMarker"] != nil)
        #expect(names("bob-page-2") == ["notre-dame"])
        #expect(names("bob-trips") == ["paris"])
        #expect(body("carol-database")?["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"]?.stringValue ?? "" } == ["Trips"])
        let zoneChanges = try #require(body("bob-zone-changes")?["zones"]?.arrayValue?.first)
        #expect(zoneChanges["records"]?.arrayValue?.compactMap { $0["recordName"]?.stringValue }.sorted() == ["louvre", "notre-dame", "paris", "paris-share"])

        #expect(body("bob-write")?["records"]?.arrayValue?.first?["serverErrorCode"]?.stringValue == "ACCESS_DENIED")
        #expect(names("carol-write") == ["orsay"])
        #expect(names("ada-stops") == ["louvre", "notre-dame", "orsay"])
        #expect(body("ada-stops")?["records"]?.arrayValue?.last?["modified"]?["userRecordName"]?.stringValue == carol)
        #expect(names("bob-zone-since") == ["orsay"])

        #expect(body("ada-removes-carol")?["records"]?.arrayValue?.first?["participants"]?.arrayValue?.count == 2)
        #expect(status("carol-after") == 404)
        #expect(body("carol-after")?["serverErrorCode"]?.stringValue == "ZONE_NOT_FOUND")
        #expect(body("carol-database-after")?["zones"]?.arrayValue?.map { $0["deleted"]?.boolValue ?? false } == [true])
        #expect(names("bob-after") == ["louvre", "notre-dame", "orsay"])

        #expect(body("ada-zone-share")?["records"]?.arrayValue?.first?["recordName"]?.stringValue == "cloudkit.zoneshare")
        #expect(names("bob-zone-write") == ["n3"])
        #expect(names("bob-notes") == ["n1", "n2", "n3"])
        #expect(body("bob-zones-after")?["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } == ["Notes", "Trips"])

        #expect(firstResult("dave-refused")?["serverErrorCode"]?.stringValue == "ACCESS_DENIED")
        #expect(body("ada-opens")?["records"]?.arrayValue?.first?["publicPermission"]?.stringValue == "READ_ONLY")
        #expect(firstResult("dave-accept")?["participantType"]?.stringValue == "PUBLIC_USER")
        #expect(names("dave-trips") == ["paris"])
        #expect(body("dave-write")?["records"]?.arrayValue?.first?["serverErrorCode"]?.stringValue == "ACCESS_DENIED")
    }

    @Test func fourUsersShareOnSQLite() async throws {
        try Self.check(try await Self.scenario(stores: [try TestEngine.sqlite.makeStore()]))
    }

    @Test(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
    func fourUsersShareThroughTwoPostgreSQLServers() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let first = try await Store.open(url: url)
        let second = try await Store.open(url: url)
        try Self.check(try await Self.scenario(stores: [first, second]))
    }
}

import Foundation
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import RecordStorePostgres

/// The PostgreSQL server the tests use: `QUERY_TEST_POSTGRES_URL` (`.ci/run` starts a private
/// cluster and sets it). Each store gets a schema of its own (`?schema=test_...`), so tests
/// running at once never see each other's records.
package enum PostgresTestServer {
    /// The server's URL, or nil when none is configured.
    package static let url: String? = {
        let url = ProcessInfo.processInfo.environment["QUERY_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if url == nil, !isRequired {
            print("note: PostgreSQL tests skipped: QUERY_TEST_POSTGRES_URL is not set (.ci/run starts a server and sets it)")
        }
        return url
    }()

    /// A hot standby of the server, streaming from it: `QUERY_TEST_POSTGRES_REPLICA_URL`
    /// (`.ci/run` starts one with `.ci/postgres replica`), or nil when none is configured.
    package static let replicaURL: String? = {
        let url = ProcessInfo.processInfo.environment["QUERY_TEST_POSTGRES_REPLICA_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if url == nil, !isRequired {
            print("note: read replica tests skipped: QUERY_TEST_POSTGRES_REPLICA_URL is not set (.ci/run starts a standby and sets it)")
        }
        return url
    }()

    /// Whether a missing server fails the tests (under CI) rather than leaving PostgreSQL out.
    package static var isRequired: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return !value.isEmpty && value != "false" && value != "0"
    }

    /// The URL of a new, empty store: the server's URL with a fresh schema.
    package static func freshStoreURL() throws(RecordStoreError) -> String {
        TestEngine.registerEngines()
        guard let url else {
            throw .serverUnavailable(server: "QUERY_TEST_POSTGRES_URL", reason: "CI is set, so the PostgreSQL tests must run, but QUERY_TEST_POSTGRES_URL names no server")
        }
        let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        return url + (url.contains("?") ? "&" : "?") + "schema=" + schema
    }

    /// A new, empty store on the server, answering the synchronous API too (``WaitingEngine``).
    package static func makeStore(mode: SchemaMode = .development) throws(RecordStoreError) -> Store {
        let url = try freshStoreURL()
        let opened = try SynchronousCall.wait { () async throws(RecordStoreError) in try await Store.open(url: url, mode: mode) }
        return Store(engine: WaitingEngine(opened.engine), mode: mode)
    }

    /// A new, empty store on the server, answering only the async API, as users get it.
    package static func makeAsyncStore(mode: SchemaMode = .development) async throws(RecordStoreError) -> Store {
        TestEngine.registerEngines()
        return try await Store.open(url: try freshStoreURL(), mode: mode)
    }
}

extension PostgresTestServer {
    /// Ends every server connection with this `application_name` (as a server restart ends
    /// them all), from a connection of its own.
    package static func terminateConnections(applicationName: String) async throws {
        guard let url else { return }
        guard try StoreLocation(url).scheme?.hasPrefix("postgres") == true else { return }
        try await PostgresAdministration.terminateConnections(url: url, applicationName: applicationName)
    }
}

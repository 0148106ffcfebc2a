import EngineTestSupport
import Foundation
import TestSupport

/// A PostgreSQL cluster of one test's own, on a free loopback port, made and run by the
/// repository's `.ci/postgres` (as `.ci/run` makes the shared one): for a test that stops or
/// promotes servers, which the suites sharing `QUERY_TEST_POSTGRES_URL` must never see.
///
/// ```swift
/// let primary = try await PrivatePostgresCluster.startPrimary()
/// let standby = try await PrivatePostgresCluster.startStandby(of: primary)
/// // ... primary.url, standby.url ...
/// await standby.stop(); await primary.stop()
/// ```
struct PrivatePostgresCluster: Sendable {
    /// The cluster's folder (its data, logs and socket).
    let directory: URL
    /// The loopback port it listens on.
    let port: Int
    /// `postgres://query:...@127.0.0.1:PORT/query_test`, as `.ci/postgres` prints it.
    let url: String

    /// What went wrong running `.ci/postgres`.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The repository's `.ci/postgres`.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".ci/postgres")

    /// Whether PostgreSQL's server programs are installed where `.ci/postgres` looks for them
    /// (`.ci/run` installs them before the tests run).
    static var isInstalled: Bool {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/pg_ctl") }
    }

    /// Runs `.ci/postgres` with `arguments`; its last line of output (a URL for `start` and
    /// `replica`), or ``Failure`` with what it printed.
    @discardableResult
    static func run(_ arguments: [String]) async throws -> String {
        let outcome = try await ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [script.path] + arguments)
        guard outcome.status == 0 else {
            throw Failure(description: ".ci/postgres \(arguments.joined(separator: " ")) failed (\(outcome.status)): \(outcome.standardError)")
        }
        return outcome.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// A new folder under the temporary directory for a cluster.
    static func newDirectory(_ role: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("query-test-\(role)-\(UUID().uuidString.lowercased())")
    }

    /// Makes and starts a new cluster (`.ci/postgres start`).
    static func startPrimary() async throws -> PrivatePostgresCluster {
        let directory = newDirectory("primary")
        let port = try TCPRelay.freePort()
        do {
            let url = try await run(["start", directory.path, String(port)])
            return PrivatePostgresCluster(directory: directory, port: port, url: url)
        } catch {
            await PrivatePostgresCluster(directory: directory, port: port, url: "").stop()
            throw error
        }
    }

    /// Makes and starts a streaming hot standby of `primary` (`.ci/postgres replica`).
    static func startStandby(of primary: PrivatePostgresCluster) async throws -> PrivatePostgresCluster {
        let directory = newDirectory("standby")
        let port = try TCPRelay.freePort()
        do {
            let url = try await run(["replica", directory.path, String(port), String(primary.port)])
            return PrivatePostgresCluster(directory: directory, port: port, url: url)
        } catch {
            await PrivatePostgresCluster(directory: directory, port: port, url: "").stop()
            throw error
        }
    }

    /// Stops the server at once, as in a crash (`pg_ctl stop -m immediate`): no shutdown
    /// checkpoint, nothing more sent to its standbys.
    func crash() async throws {
        try await Self.run(["stop", directory.path, "immediate"])
    }

    /// Stops the server (when it runs) and removes its folder; never fails.
    func stop() async {
        _ = try? await Self.run(["stop", directory.path])
        try? FileManager.default.removeItem(at: directory)
    }
}

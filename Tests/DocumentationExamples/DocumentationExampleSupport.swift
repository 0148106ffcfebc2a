import Foundation
@_spi(StorageEngine) import RecordStoreCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the generated programs call where a document's text cannot run as it is written.
enum DocumentationExampleSupport {
    /// The value of a fragment appended to an expression (`Entity.query(in: context)` +
    /// `.where([.quantity: 1])`). Always `throws`, so that `try` is right whether or not the
    /// fragment throws.
    static func evaluated<Value>(_ value: @autoclosure () throws -> Value) throws -> Value {
        try value()
    }

    /// Runs a block that awaits, inside a synchronous program, to its end.
    static func wait(_ block: () async throws -> Void) throws {
        try SynchronousCall.wait(block)
    }

    /// Cancels a block that runs until cancelled (a loop over live results, a server) and waits
    /// for it; an error other than the cancellation is the example's, and is thrown.
    static func cancel<Failure: Error>(_ task: Task<Void, Failure>) async throws {
        task.cancel()
        do {
            try await task.value
        } catch is CancellationError {
            // What a cancelled loop or server may throw.
        }
    }

    /// The URL of the test server (`QUERY_TEST_POSTGRES_URL`) for a document's PostgreSQL URL,
    /// with the document's `schema` parameter (or `doc_examples`), so the examples' records stay
    /// in schemas of their own.
    static func postgresURL(_ documentURL: String) -> String {
        let server = ProcessInfo.processInfo.environment["QUERY_TEST_POSTGRES_URL"] ?? documentURL
        let schema = URLComponents(string: documentURL)?.queryItems?.first { $0.name == "schema" }?.value ?? "doc_examples"
        guard var components = URLComponents(string: server) else { return server }
        let otherItems = (components.queryItems ?? []).filter { $0.name != "schema" }
        components.queryItems = otherItems + [URLQueryItem(name: "schema", value: schema)]
        return components.string ?? server
    }

    /// Waits until the server on this loopback port answers `GET /health` with 200.
    static func waitForHealth(port: Int, timeout: Duration = .seconds(30)) async throws {
        let url = URL(string: "http://127.0.0.1:\(port)/health")
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let url, let (_, response) = try? await URLSession.shared.data(from: url),
               (response as? HTTPURLResponse)?.statusCode == 200 {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ExampleFailure.serverDidNotAnswer(port: port)
    }
}

/// A way a generated program's hidden code finds an example not doing what its text says.
enum ExampleFailure: Error, CustomStringConvertible {
    case serverDidNotAnswer(port: Int)

    var description: String {
        switch self {
        case .serverDidNotAnswer(let port): "the server did not answer GET /health on port \(port)"
        }
    }
}

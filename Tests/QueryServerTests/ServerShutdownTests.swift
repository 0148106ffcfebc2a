import Foundation
import Logging
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// Stopping a server by cancelling its task is a clean shutdown: `run` returns, and nothing is
/// logged at error level (Hummingbird logs a cancelled service group as failed).
@Suite("Server shutdown")
struct ServerShutdownTests {
    @Test("Cancelling a server that served requests returns normally and logs no error")
    func cancellingLogsNoError() async throws {
        let log = CapturedLog()
        let logger = Logger(label: "query.serve.shutdown") { _ in CapturingLogHandler(log: log) }
        let store = try await Store.open(url: "memory:")
        let status = try await ServerHarness.withServer(store: store, logger: logger) { server in
            try await server.send("GET", "/health").status
        }
        #expect(status == 200)
        let entries = log.entries
        #expect(entries.filter { $0.level >= .error }.map(\.message) == [])
        // The server did log while it ran: the handler was the one in use.
        #expect(entries.contains { $0.message.contains("Server started") || $0.level == .info })
    }
}

/// What a ``CapturingLogHandler`` received.
final class CapturedLog: Sendable {
    private let state = LockedState<[(level: Logger.Level, message: String)]>([])

    var entries: [(level: Logger.Level, message: String)] { state.withLock { $0 } }

    func append(_ level: Logger.Level, _ message: String) {
        state.withLock { $0.append((level, message)) }
    }
}

/// A log handler that keeps every entry, at every level.
struct CapturingLogHandler: LogHandler {
    let log: CapturedLog
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        log.append(event.level, event.message.description)
    }
}

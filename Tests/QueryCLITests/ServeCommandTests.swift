import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// `query serve` as a process: it answers, refuses unsafe options, and stops cleanly on SIGTERM.
@Suite struct ServeCommandTests {
    /// Starts `query serve` (or `query console`) on a fresh SQLite file and any free port; the
    /// process and the port it announces on standard error after `prefix`.
    static func startServer(
        command: String = "serve", announcedAfter prefix: String = "listening on http://127.0.0.1:"
    ) async throws -> (Process, Int) {
        let database = TestFolders.file("serve-\(command)", named: "store.sqlite")
        let process = Process()
        process.executableURL = CommandRunner.productsFolder.appendingPathComponent("query")
        process.arguments = [command, "--db", database, "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, try await announcedPort(errors.fileHandleForReading, after: prefix))
    }

    @Test func servesThenStopsCleanlyOnSIGTERM() async throws {
        let (process, port) = try await Self.startServer()
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == #"{"status":"ok"}"#)
        process.terminate()   // SIGTERM: a graceful shutdown
        let status = try await Self.exitStatus(process)
        #expect(status == 0)
    }

    @Test func stopsOnSIGTERMWhileANotificationStreamIsOpen() async throws {
        let (process, port) = try await Self.startServer()
        let stream = try EventStreamClient(port: port, path: "/database/1/iCloud.example/development/public/subscriptions/events")
        try await stream.waitForHead()
        #expect(stream.statusLine == "HTTP/1.1 200 OK")
        process.terminate()
        // The open stream ends with the server; it does not hold the shutdown up.
        #expect(try await Self.exitStatus(process) == 0)
        stream.close()
    }

    @Test func refusesANonLoopbackHostWithoutCredentials() throws {
        let outcome = try CommandRunner.run(["serve", "--host", "0.0.0.0"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("loopback"))
        let badKey = try CommandRunner.run(["serve", "--key", "id=/nonexistent.pem"])
        #expect(badKey.status == 1)
        #expect(badKey.standardError.contains("cannot be read"))
    }

    /// Reads standard error on a thread of its own until a line names the port after `prefix`
    /// (`query serve: listening on http://127.0.0.1:PORT (…)`, `query console: open http://127.0.0.1:PORT/`).
    static func announcedPort(_ handle: FileHandle, after prefix: String = "listening on http://127.0.0.1:") async throws -> Int {
        let pattern = NSRegularExpression.escapedPattern(for: prefix) + #"\d+[^0-9]"#
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                var text = ""
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    text += String(decoding: chunk, as: UTF8.self)
                    if let range = text.range(of: pattern, options: .regularExpression) {
                        let port = Int(text[range].dropFirst(prefix.count).prefix { $0.isNumber })
                        continuation.resume(returning: port ?? 0)
                        return
                    }
                }
                continuation.resume(throwing: CocoaError(.fileReadUnknown, userInfo: ["output": text]))
            }.start()
        }
    }

    /// Waits for the process to end on a thread of its own.
    static func exitStatus(_ process: Process) async throws -> Int32 {
        await withCheckedContinuation { continuation in
            Thread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }.start()
        }
    }
}

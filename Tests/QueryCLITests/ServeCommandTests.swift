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
        command: String = "serve", announcedAfter prefix: String = "listening on http://127.0.0.1:", arguments: [String] = [],
        database: String? = nil
    ) async throws -> (SpawnedChild, Int) {
        let database = database ?? TestFolders.file("serve-\(command)", named: "store.sqlite")
        let process = try SpawnedChild(
            CommandRunner.productsFolder.appendingPathComponent("query"), [command, "--db", database, "--port", "0"] + arguments,
            output: .null, error: .pipe)
        // The pipe was asked for, so `error` is there; were it not, the read would end at once.
        return (process, try await announcedPort(process.error ?? FileHandle.nullDevice, after: prefix))
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

    @Test func refusesANonLoopbackHostWithoutCredentials() async throws {
        let outcome = try await CommandRunner.run(["serve", "--host", "0.0.0.0"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("loopback"))
        let badKey = try await CommandRunner.run(["serve", "--key", "id=/nonexistent.pem"])
        #expect(badKey.status == 1)
        #expect(badKey.standardError.contains("cannot be read"))
        let retention = try await CommandRunner.run(["serve", "--history-retention-days", "0"])
        #expect(retention.status == 2)
        #expect(retention.standardError.contains("--history-retention-days is more than 0"))
    }

    @Test func anAdministratorTokenFileOpensTheRolesRoutesToItsBearerOnly() async throws {
        let folder = TestFolders.make("serve-admin-token")
        let file = folder.appendingPathComponent("admin-token").path
        // The file's text without the white space around it.
        try Data("  s3cr3t-admin\n".utf8).write(to: URL(fileURLWithPath: file))
        let (process, port) = try await Self.startServer(arguments: ["--admin-token-file", file],
                                                         database: folder.appendingPathComponent("store.sqlite").path)
        defer { process.terminate() }
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/database/1/iCloud.example/production/public/roles/list")!)
        request.setValue("Bearer s3cr3t-admin", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try JSONSerialization.jsonObject(with: data) as? [String: [String]] == ["roles": []])
        // A token that is not the administrator's is refused, even on a loopback server.
        request.setValue("Bearer s3cr3t-admi", forHTTPHeaderField: "Authorization")
        let (refusal, refused) = try await URLSession.shared.data(for: request)
        #expect((refused as? HTTPURLResponse)?.statusCode == 403)
        #expect((try JSONSerialization.jsonObject(with: refusal) as? [String: Any])?["serverErrorCode"] as? String == "ACCESS_DENIED")
        process.terminate()
        #expect(try await Self.exitStatus(process) == 0)

        // A file that holds nothing, or cannot be read, starts nothing.
        let empty = folder.appendingPathComponent("empty-token").path
        try Data(" \n".utf8).write(to: URL(fileURLWithPath: empty))
        let database = folder.appendingPathComponent("other.sqlite").path
        let emptied = try await CommandRunner.run(["serve", "--db", database, "--port", "0", "--admin-token-file", empty])
        #expect(emptied.status == 1)
        #expect(emptied.standardError == "error: --admin-token-file \(empty) is empty\n")
        let missing = try await CommandRunner.run(["serve", "--db", database, "--port", "0", "--admin-token-file", folder.appendingPathComponent("none").path])
        #expect(missing.status == 1)
        #expect(missing.standardError.hasPrefix("error: --admin-token-file \(folder.appendingPathComponent("none").path): "))
        let help = try await CommandRunner.run(["serve", "--help"])
        #expect(help.standardOutput.contains("--admin-token-file <file>"))
    }

    static let schemaFile = """
        DEFINE SCHEMA
            RECORD TYPE City (
                name       STRING QUERYABLE SORTABLE,
                population INT64 QUERYABLE
            );
        """

    @Test func servesWithASchemaFileAndAnswersItAsCKDB() async throws {
        let folder = TestFolders.make("serve-schema")
        let file = folder.appendingPathComponent("schema.ckdb").path
        let database = folder.appendingPathComponent("store.sqlite").path
        try Data(Self.schemaFile.utf8).write(to: URL(fileURLWithPath: file))
        let (process, port) = try await Self.startServer(arguments: ["--schema", file], database: database)
        defer { process.terminate() }
        let base = "http://127.0.0.1:\(port)/database/1/iCloud.com.example.cities/production/public/"
        let (data, response) = try await URLSession.shared.data(from: URL(string: base + "schema?format=ckdb")!)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        // The file was applied: the server answers what `query schema export` prints of the store.
        let exported = try await CommandRunner.run(["schema", "export", "--db", database])
        #expect(exported.status == 0)
        #expect(exported.standardOutput.contains("    name            STRING QUERYABLE SORTABLE,\n        population      INT64 QUERYABLE\n"))
        #expect(String(decoding: data, as: UTF8.self) == exported.standardOutput)
        // Production: the schema's type is saved, a new one refused.
        var request = URLRequest(url: URL(string: base + "records/modify")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"operations": [{"operationType": "create", "record": {"recordName": "n", "recordType": "Note", "fields": {"title": {"value": "Hi"}}}}]}"#.utf8)
        let (answer, _) = try await URLSession.shared.data(for: request)
        let records = (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["records"] as? [[String: String]]
        #expect(records == [["recordName": "n", "serverErrorCode": "BAD_REQUEST", "reason": "Cannot create record type 'Note' in production mode"]])
        process.terminate()
        #expect(try await Self.exitStatus(process) == 0)
    }

    @Test func aBadSchemaFileExitsWithItsLineAndColumnAndServesNothing() async throws {
        let folder = TestFolders.make("serve-bad-schema")
        let database = folder.appendingPathComponent("store.sqlite").path
        let bad = folder.appendingPathComponent("bad.ckdb")
        try Data("DEFINE SCHEMA\n    RECORD TYPE City (\n        name STRNG\n    );\n".utf8).write(to: bad)
        let syntax = try await CommandRunner.run(["serve", "--db", database, "--port", "0", "--schema", bad.path])
        #expect(syntax.status == 1)
        #expect(syntax.standardError == "error: \(bad.path): line 3, column 14: expected a field type (STRING, INT64, DOUBLE, TIMESTAMP, BYTES, REFERENCE, ASSET, LOCATION, NUMBER, ENCRYPTED ..., LIST<...>), found 'STRNG'\n")

        // A field whose type would change: refused, the store unchanged, nothing served.
        let good = folder.appendingPathComponent("good.ckdb")
        try Data(Self.schemaFile.utf8).write(to: good)
        #expect(try await CommandRunner.run(["schema", "apply", "--db", database, good.path]).status == 0)
        let changed = folder.appendingPathComponent("changed.ckdb")
        try Data("DEFINE SCHEMA\n    RECORD TYPE City (\n        population STRING\n    );\n".utf8).write(to: changed)
        let refused = try await CommandRunner.run(["serve", "--db", database, "--port", "0", "--schema", changed.path])
        #expect(refused.status == 1)
        #expect(refused.standardError == "error: \(changed.path): line 3: record type 'City', field 'population': its type would change from INT64 to STRING; a field's type cannot change\n")
        let shown = try await CommandRunner.run(["schema", "--db", database, "City"])
        #expect(shown.standardOutput == "City\n  name        string  queryable sortable\n  population  int64  queryable\n")

        let help = try await CommandRunner.run(["serve", "--help"])
        #expect(help.standardOutput.contains("--schema <file.ckdb>"))
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
    static func exitStatus(_ process: SpawnedChild) async throws -> Int32 {
        await process.exit().status
    }
}

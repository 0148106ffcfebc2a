import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing
import TestSupport

/// `records/changes`, `changes/zone`, `changes/database` and `zones/changes` (issue #31, item 2)
/// through a real socket, on the private database of a server without credentials: answers in
/// Apple's shapes, `moreComing` paging, the refusals CloudKit answers (the default zone, the
/// public database, an expired or foreign token), and zone dictionaries that carry `syncToken`.
@Suite("Change routes")
struct ChangesRoutesTests {
    static func create(_ names: [String], zone: String, text: String = "hello") -> JSONValue {
        .object([
            "zoneID": .object(["zoneName": .string(zone)]),
            "operations": .array(names.map { name in
                .object(["operationType": "forceReplace", "record": .object([
                    "recordName": .string(name), "recordType": "Note", "fields": .object(["text": .object(["value": .string(text)])]),
                ])])
            }),
        ])
    }

    static func changes(_ server: ServerHarness, zone: String, token: JSONValue? = nil, limit: Int64 = 200) async throws -> ServerHarness.Answer {
        var body: [String: JSONValue] = ["zoneID": .object(["zoneName": .string(zone)]), "resultsLimit": .integer(limit)]
        if let token { body["syncToken"] = token }
        return try await server.post("records/changes", .object(body), environment: "development", database: "private")
    }

    @Test func recordChangesPageAndContinue() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let zones = try await server.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Notes"]]]]], environment: "development", database: "private")
            #expect(zones.body["zones"]?.arrayValue?.first?["syncToken"]?.stringValue?.isEmpty == false)
            _ = try await server.post("records/modify", Self.create(["a", "b", "c"], zone: "Notes"), environment: "development", database: "private")
            let first = try await Self.changes(server, zone: "Notes", limit: 2)
            #expect(first.status == 200)
            #expect(first.recordNames == ["a", "b"])
            #expect(first.body["moreComing"] == true)
            #expect(first.body["zoneID"]?["zoneName"] == "Notes")
            let rest = try await Self.changes(server, zone: "Notes", token: first.body["syncToken"], limit: 2)
            #expect(rest.recordNames == ["c"])
            #expect(rest.body["moreComing"] == false)

            _ = try await server.post("records/modify", Self.create(["b"], zone: "Notes", text: "edited"), environment: "development", database: "private")
            _ = try await server.post("records/modify", ["zoneID": ["zoneName": "Notes"], "operations": [["operationType": "forceDelete", "record": ["recordName": "a"]]]], environment: "development", database: "private")
            let next = try await Self.changes(server, zone: "Notes", token: rest.body["syncToken"])
            #expect(next.records.map { $0["recordName"]?.stringValue ?? "" } == ["b", "a"])
            #expect(next.records.first?["fields"]?["text"]?["value"] == "edited")
            #expect(next.records.last?["deleted"] == true)

            // changes/zone: each zone with its own token; a failing zone is an entry.
            let several = try await server.post("changes/zone", ["zones": [
                ["zoneID": ["zoneName": "Notes"], "syncToken": next.body["syncToken"] ?? nil],
                ["zoneID": ["zoneName": "Missing"]],
            ]], environment: "development", database: "private")
            let entries = several.body["zones"]?.arrayValue ?? []
            #expect(entries.count == 2)
            #expect(entries.first?["records"]?.arrayValue?.isEmpty == true)
            #expect(entries.last?["serverErrorCode"] == "ZONE_NOT_FOUND")
        }
    }

    @Test func databaseChangesAndZoneTokens() async throws {
        let store = try TestEngine.memory.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let first = try await server.post("changes/database", [:], environment: "development", database: "private")
            #expect(first.status == 200)
            _ = try await server.post("zones/modify", ["operations": [
                ["operationType": "create", "zone": ["zoneID": ["zoneName": "Notes"]]],
                ["operationType": "create", "zone": ["zoneID": ["zoneName": "Trash"]]],
            ]], environment: "development", database: "private")
            _ = try await server.post("zones/modify", ["operations": [["operationType": "delete", "zone": ["zoneID": ["zoneName": "Trash"]]]]], environment: "development", database: "private")
            let next = try await server.post("changes/database", ["syncToken": first.body["syncToken"] ?? nil], environment: "development", database: "private")
            let zones = next.body["zones"]?.arrayValue ?? []
            #expect(zones.map { $0["zoneID"]?["zoneName"]?.stringValue ?? "" } == ["Notes", "Trash"])
            #expect(zones.map { $0["deleted"] == true } == [false, true])
            #expect(next.body["moreComing"] == false)
            // zones/changes: the same, zone dictionaries with their tokens; the public database answers too.
            let zoneChanges = try await server.post("zones/changes", ["syncToken": first.body["syncToken"] ?? nil], environment: "development", database: "private")
            #expect(zoneChanges.body["zones"]?.arrayValue?.first?["syncToken"]?.stringValue?.isEmpty == false)
            #expect(try await server.post("zones/changes", [:]).status == 200)
            // A zone's syncToken from zones/list continues in records/changes with nothing new.
            let list = try await server.send("GET", ServerHarness.path("zones/list", environment: "development", database: "private"))
            let notes = list.body["zones"]?.arrayValue?.first { $0["zoneID"]?["zoneName"] == "Notes" }
            let quiet = try await Self.changes(server, zone: "Notes", token: notes?["syncToken"])
            #expect(quiet.status == 200 && quiet.records.isEmpty)
        }
    }

    @Test func refusalsAsCloudKitAnswersThem() async throws {
        let store = try TestEngine.memory.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            _ = try await server.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Notes"]]]]], environment: "development", database: "private")
            let defaultZone = try await Self.changes(server, zone: "_defaultZone")
            #expect(defaultZone.status == 400 && defaultZone.errorCode == "BAD_REQUEST")
            let publicDatabase = try await server.post("records/changes", ["zoneID": ["zoneName": "Notes"]])
            #expect(publicDatabase.status == 400 && publicDatabase.errorCode == "BAD_REQUEST")
            #expect(try await server.post("changes/database", [:]).errorCode == "BAD_REQUEST")
            let missingZone = try await server.post("records/changes", [:], environment: "development", database: "private")
            #expect(missingZone.errorCode == "BAD_REQUEST")
            let forged = try await Self.changes(server, zone: "Notes", token: "AAAA")
            #expect(forged.status == 400 && forged.errorCode == "BAD_REQUEST")

            // An expired token: its deletions were pruned.
            _ = try await server.post("records/modify", Self.create(["a"], zone: "Notes"), environment: "development", database: "private")
            let before = try await Self.changes(server, zone: "Notes")
            _ = try await server.post("records/modify", ["zoneID": ["zoneName": "Notes"], "operations": [["operationType": "forceDelete", "record": ["recordName": "a"]]]], environment: "development", database: "private")
            // The development environment's history is in its own store.
            let development = try await server.developmentStore()
            development.historyRetention = .seconds(60)
            try await development.pruneHistory(now: Date().addingTimeInterval(3600))
            let expired = try await Self.changes(server, zone: "Notes", token: before.body["syncToken"])
            #expect(expired.status == 400)
            #expect(expired.errorCode == "CHANGE_TOKEN_EXPIRED", "\(expired.body)")
            let several = try await server.post("changes/zone", ["zones": [["zoneID": ["zoneName": "Notes"], "syncToken": before.body["syncToken"] ?? nil]]], environment: "development", database: "private")
            #expect(several.body["zones"]?.arrayValue?.first?["serverErrorCode"] == "CHANGE_TOKEN_EXPIRED")
        }
    }
}

/// The sync client of `Clients/sync_client.py` (written from Apple's reference, apart from the
/// server) mirrors two custom zones through rounds of random writes; on PostgreSQL it talks to two
/// servers of one store in turn, so every token it holds was made by the other server.
@Suite(.enabled(if: PythonClient.python != nil || PostgresTestServer.isRequired, "QUERY_TEST_PYTHON is not set (.ci/run makes a virtual environment with python-ecdsa and requests)"))
struct SyncClientTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/sync_client.py").path

    /// Runs the client against the servers; its output lines.
    static func mirror(stores: [Store], seed: Int) async throws -> [String] {
        let python = try #require(PythonClient.python, "CI is set, so QUERY_TEST_PYTHON must name the virtual environment's python")
        let keyPath = TestEngine.temporaryDatabasePath("sync-key-\(seed)") + ".pem"
        _ = try await PythonClientTests.run(["keygen", keyPath])
        var credentials = ServerCredentials()
        try credentials.addKey("sync-client=\(keyPath)")
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials)
        let run: @Sendable ([Int]) async throws -> (Int32, String) = { ports in
            try await ChildProcess.run(python, [script, "mirror", "sync-client", keyPath, String(seed), "6"] + ports.map { "http://127.0.0.1:\($0)" })
        }
        let (status, output): (Int32, String)
        if stores.count == 2 {
            (status, output) = try await ServerHarness.withServer(store: stores[0], configuration: configuration) { one in
                try await ServerHarness.withServer(store: stores[1], configuration: configuration) { other in try await run([one.port, other.port]) }
            }
        } else {
            (status, output) = try await ServerHarness.withServer(store: stores[0], configuration: configuration) { server in try await run([server.port]) }
        }
        #expect(status == 0, "the sync client failed:\n\(output.suffix(3000))")
        return output.split(separator: "\n").map(String.init)
    }

    static func checkResult(_ lines: [String]) throws {
        let last = try JSONValue(parsing: Array(try #require(lines.last).utf8))
        #expect(last["result"] == "ok", "\(lines.suffix(3))")
        #expect(last["rounds"] == 6)
        #expect(lines.filter { $0.hasPrefix("{\"round\"") || $0.contains("\"round\":") }.count == 6)
    }

    @Test func mirrorsTwoZonesOnSQLite() async throws {
        try Self.checkResult(try await Self.mirror(stores: [try TestEngine.sqlite.makeStore()], seed: 7))
    }

    @Test(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
    func mirrorsTwoZonesAcrossTwoPostgreSQLServers() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let first = try await Store.open(url: url)
        let second = try await Store.open(url: url)
        try Self.checkResult(try await Self.mirror(stores: [first, second], seed: 11))
    }
}

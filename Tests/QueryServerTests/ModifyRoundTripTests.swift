import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// What `records/modify` asks of its store beyond the save itself: nothing, for a request of new
/// records. Its schema-growth check of an atomic request is the store's own (the save's
/// transaction holds it to the limits), and a record it creates cannot be a share's root unless
/// the request saves that share too, so no share lookup follows. A request that saves nothing
/// asks the store nothing at all.
///
/// The engine's calls are recorded (``recordingEngineCalls(of:)``): on PostgreSQL each is at
/// least a round trip, on SQLite a hop to a database queue.
@Suite struct ModifyRoundTripTests {
    static let engines: [TestEngine] = [.sqlite] + (TestEngine.allCases.contains(.postgres) ? [.postgres] : [])

    static func note(_ name: String, title: String) -> JSONValue {
        ["recordName": .string(name), "recordType": "Note", "fields": ["title": ["value": .string(title)]]]
    }

    static func modify(_ operationType: String, _ records: [JSONValue], zone: String) -> JSONValue {
        ["zoneID": ["zoneName": .string(zone)], "operations": .array(records.map { ["operationType": .string(operationType), "record": $0] })]
    }

    /// Runs `body` with a server over a fresh store of `engine` whose engine calls are recorded,
    /// Ada signed in, and her private zone `zone` made.
    static func withServer(_ engine: TestEngine, zone: String, _ body: @Sendable (ServerHarness, WebAuthTests.SignedInClient) async throws -> Void) async throws {
        let store = recordingEngineCalls(of: try engine.makeStore())
        let (_, token) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            let client = WebAuthTests.SignedInClient(server, token: token)
            let made = try await client.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": .string(zone)]]]]],
                                             database: "private")
            #expect(made.status == 200, "\(made.body)")
            try await body(server, client)
        }
    }

    @Test("new records in a private zone: the request's one engine call is the save; a request that saves nothing makes none", arguments: engines)
    func newRecordsCostTheSaveAlone(engine: TestEngine) async throws {
        try await Self.withServer(engine, zone: "Notes") { server, client in
            let development = try await server.developmentStore()
            engineCalls(of: development, clearing: true)
            let names = (0..<10).map { "note-\($0)" }
            let saved = try await client.post("records/modify", Self.modify("create", names.map { Self.note($0, title: $0) }, zone: "Notes"), database: "private")
            #expect(saved.recordNames == names, "\(saved.body)")
            #expect(saved.records.allSatisfy { $0["share"] == nil })
            #expect(engineCalls(of: development, clearing: true) == ["modify"])

            let empty = try await client.post("records/modify", ["zoneID": ["zoneName": "Notes"], "operations": []], database: "private")
            #expect(empty.status == 200 && empty.records.isEmpty, "\(empty.body)")
            #expect(engineCalls(of: development, clearing: true).isEmpty)

            // An update reads the stored records first, and the shares of the saved ones after.
            let updated = try await client.post("records/modify", Self.modify("forceUpdate", [Self.note("note-0", title: "changed")], zone: "Notes"),
                                                database: "private")
            #expect(updated.records.first?["fields"]?["title"]?["value"]?.stringValue == "changed", "\(updated.body)")
            let calls = engineCalls(of: development, clearing: true)
            #expect(calls.first == "records" && calls.contains("modify") && calls.last != "modify", "\(calls)")
        }
    }

    @Test("a record created with its share in one request answers its share, and so does a later save of it", arguments: engines)
    func aRootCreatedWithItsShareAnswersIt(engine: TestEngine) async throws {
        try await Self.withServer(engine, zone: "Trips") { _, client in
            let together = try await client.post("records/modify", ["zoneID": ["zoneName": "Trips"], "operations": [
                ["operationType": "create", "record": Self.note("trip", title: "Lisbon")],
                ["operationType": "create", "record": Self.note("other", title: "Porto")],
                SharingRoutesTests.share("trip-share", root: "trip", participants: []),
            ]], database: "private")
            #expect(together.recordNames == ["trip", "other", "trip-share"], "\(together.body)")
            #expect(together.records[0]["share"]?["recordName"]?.stringValue == "trip-share")
            #expect(together.records[1]["share"] == nil)

            let updated = try await client.post("records/modify", Self.modify("forceUpdate", [Self.note("trip", title: "Lisbon in May")], zone: "Trips"),
                                                database: "private")
            #expect(updated.records.first?["fields"]?["title"]?["value"]?.stringValue == "Lisbon in May", "\(updated.body)")
            #expect(updated.records.first?["share"]?["recordName"]?.stringValue == "trip-share")
        }
    }
}

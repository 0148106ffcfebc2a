import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import TestSupport
import Testing

/// The console's "act as", in a real browser (`Clients/console_acting.py`): only with the
/// administrator token does the header offer the server's users; acting as one shows their
/// private (and shared) database under a banner saying so, and Stop acting goes back.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleActingTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_acting.py").path

    @Test(arguments: ConsoleBrowser.engines)
    func theAdministratorActsAsEachUserThenStops(engine: TestEngine) async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try engine.makeStore()
        let (ada, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (bob, bobToken) = try await WebAuthTests.signIn(store, email: "bob@example.org", givenName: "Bob")
        let (status, output) = try await ServerHarness.withServer(store: store, configuration: try RoleRoutesTests.configuration(TestKey(), heldKey: TestKey())) { server in
            #expect(try await WebAuthTests.SignedInClient(server, token: adaToken).post("records/modify", WebAuthTests.create("a1", title: "Ada's"), database: "private").status == 200)
            #expect(try await WebAuthTests.SignedInClient(server, token: bobToken).post("records/modify", WebAuthTests.create("b1", title: "Bob's"), database: "private").status == 200)
            return try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)", WebAuthTests.apiToken, RoleRoutesTests.administratorToken,
                                                       ada.userRecordName, bob.userRecordName])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)
        #expect(steps["withoutAdministrator"] == ["step": "withoutAdministrator", "pickerShown": false, "banner": nil,
                                                  "owner": "Private database: sign in to see yours", "actingAs": "", "rows": []])
        let users = [ada, bob].sorted { $0.userRecordName < $1.userRecordName }
        let options: [JSONValue] = [["", "yourself"]] + users.map { [.string($0.userRecordName), .string("\($0.givenName ?? "") (\($0.userRecordName))")] }
        #expect(steps["picker"] == ["step": "picker", "options": .array(options)])
        func acting(_ user: ServerUser, _ name: String, rows: [JSONValue]) -> JSONValue {
            ["pickerShown": true, "banner": .string("Acting as \(name) (\(user.userRecordName)): their private and shared databases, read-only.\nStop acting"),
             "owner": .string("Private database of \(name), acting as them"), "actingAs": .string(user.userRecordName), "rows": .array(rows)]
        }
        guard case .object(var adaState) = acting(ada, "Ada", rows: ["a1"]), case .object(var bobState) = acting(bob, "Bob", rows: ["b1"]) else { return }
        adaState["step"] = "ada"
        bobState["step"] = "bob"
        #expect(steps["ada"] == .object(adaState))
        #expect(steps["adaShared"] == ["step": "adaShared", "owner": "Shared with Ada, acting as them", "error": nil])
        #expect(steps["bob"] == .object(bobState))
        #expect(steps["stopped"] == ["step": "stopped", "pickerShown": true, "banner": nil, "owner": "Private database: sign in to see yours",
                                     "actingAs": "", "rows": [], "focused": "act-as"])
    }
}

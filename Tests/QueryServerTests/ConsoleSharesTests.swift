import EngineTestSupport
import Foundation
@testable import QueryServer
import RecordStore
import TestSupport
import Testing

/// A record of a zone its owner shared whole (a zone-wide share, `cloudkit.zoneshare`) names no
/// share of its own; the console's record panel shows the zone's share all the same, with its
/// owner, public permission and exact participants, to the owner in their private database and to
/// a participant in their shared database (`Clients/console_shares.py`).
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleSharesTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_shares.py").path
    static let container = "iCloud.com.example.cities"

    @Test(arguments: ConsoleBrowser.engines)
    func aRecordOfAZoneSharedWholeShowsTheZonesShareAndItsParticipants(engine: TestEngine) async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await RecordsQueryTests.servedStore(engine)
        let directory = UserDirectory(store: store)
        let ada = try await directory.add(ServerUser(givenName: "Ada", familyName: "Lovelace", emailAddress: "ada@example.org", isDiscoverable: true))
        let bob = try await directory.add(ServerUser(givenName: "Bob", emailAddress: "bob@example.org"))
        // Ada's zone Notes, shared whole: Bob may write and has accepted; Cleo, invited by email, has not.
        let notes = try Namespace(environment: .production, database: ada.privateDatabase).storedZone("Notes")
        try await store.createZone(notes)
        _ = try await store.save([Record(recordType: "City", recordID: RecordID(recordName: "nice", zoneID: notes),
                                         fields: ["name": .string("Nice"), "population": .int(342_000)])])
        let share = try await store.saveShare(RecordShare(
            zone: notes, owner: ada.userRecordName, publicPermission: .none,
            participants: [ShareParticipant(userRecordName: bob.userRecordName, permission: .readWrite),
                           ShareParticipant(emailAddress: "cleo@example.org", permission: .readOnly)]), as: ada.userRecordName)
        _ = try await store.acceptShare(shortGUID: share.shortGUID, as: bob.userRecordName)
        let sessions = WebAuthSessions(store: store)
        let adaToken = try await sessions.open(userRecordName: ada.userRecordName, container: Self.container)
        let bobToken = try await sessions.open(userRecordName: bob.userRecordName, container: Self.container)
        let (status, output) = try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)", WebAuthTests.apiToken, adaToken, bobToken, ada.userRecordName])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)
        let (adaName, bobName) = (ada.userRecordName, bob.userRecordName)

        // Owner, type, permission and status of each participant, exactly, and the row's user.
        let participants: JSONValue = [
            [.string(adaName), "OWNER", "READ_WRITE", "ACCEPTED", .string(adaName)],
            [.string(bobName), "PRIVATE_USER", "READ_WRITE", "ACCEPTED", .string(bobName)],
            ["cleo@example.org", "PRIVATE_USER", "READ_ONLY", "PENDING", ""],
        ]
        let summary = JSONValue.string("Shared by \(adaName) · public permission NONE · short GUID \(share.shortGUID)")
        let headings: JSONValue = ["Fields", "System fields", "Zone-wide share of Notes"]
        #expect(steps["owner"] == ["step": "owner", "error": nil, "headings": headings, "summary": summary, "participants": participants])
        #expect(steps["participant"] == ["step": "participant", "error": nil, "headings": headings, "summary": summary, "participants": participants])
        #expect(steps["sharesProblems"]?["problems"] == [])
    }
}

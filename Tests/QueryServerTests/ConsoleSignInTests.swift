import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing
import TestSupport

/// The console's own session, in headless Chromium (`Clients/console_browser.py`, as
/// ``ConsoleBrowserTests``): a server with an API token and users, a token pasted (as
/// `query users token` makes one) or handed over by the sign-in popup (through the provider of
/// `Clients/oidc_provider.py`), the user's name and private database shown, the token rotating
/// with each answer, and each user's private records their own. Under CI the suite must run.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleSignInTests {
    static let container = WebAuthTests.container

    @Test(arguments: ConsoleBrowser.engines)
    func aPastedTokenSignsInAndEachUserSeesOnlyTheirOwnPrivateDatabase(engine: TestEngine) async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await RecordsQueryTests.servedStore(engine)
        let directory = UserDirectory(store: store)
        let ada = try await directory.add(ServerUser(givenName: "Ada", familyName: "Lovelace", emailAddress: "ada@example.org"))
        // A user without a name is shown by email address.
        let bob = try await directory.add(ServerUser(emailAddress: "bob@example.org"))
        let sessions = WebAuthSessions(store: store)
        let adaToken = try await sessions.open(userRecordName: ada.userRecordName, container: Self.container)
        let bobToken = try await sessions.open(userRecordName: bob.userRecordName, container: Self.container)
        let (status, output) = try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            try await ChildProcess.run(python, [ConsoleBrowserTests.script, "http://127.0.0.1:\(server.port)", "--signin", WebAuthTests.apiToken,
                                                adaToken, bobToken])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)

        // With the API token alone: the public database, a box to paste a token (no provider, no Sign in).
        let signedOut = try #require(steps["signedOut"])
        #expect(signedOut["identity"] == "Not signed in")
        #expect(signedOut["signInShown"] == false)
        #expect(signedOut["pasteShown"] == true)
        #expect(signedOut["signOutShown"] == false)
        #expect(signedOut["owner"] == .null)
        #expect(signedOut["token"] == .null)
        #expect(signedOut["rows"]?.arrayValue?.count == 12)

        // Ada's pasted token: her name, and a token the answers rotated in sessionStorage.
        let first = try #require(steps["firstSignedIn"])
        #expect(first["identity"] == .string("Signed in as Ada Lovelace (\(ada.userRecordName))"))
        #expect(first["user"] == .string(ada.userRecordName))
        #expect(first["pasteShown"] == false)
        #expect(first["signOutShown"] == true)
        let rotated = try #require(first["token"]?.stringValue)
        #expect(rotated != adaToken)
        let firstPrivate = try #require(steps["firstPrivate"])
        #expect(firstPrivate["owner"] == "Private database of Ada Lovelace")
        #expect(firstPrivate["rows"] == [])
        #expect(firstPrivate["token"] != first["token"])
        // On a phone the header wraps: nothing past the viewport, nothing cut.
        let phone = try #require(steps["signedInLayout360"])
        #expect(phone["past"] == [])
        #expect(phone["cut"] == [])
        #expect(phone["pageScrollsSideways"] == false)

        // A record saved in her private database, and there only.
        let saved = try #require(steps["firstSaved"])
        #expect(saved["error"] == .null)
        #expect(saved["rows"] == ["ada-secret"])
        let adaZone = try Namespace(environment: .production, database: ada.privateDatabase).storedZone("_defaultZone")
        let stored = try await store.record(for: RecordID(recordName: "ada-secret", zoneID: adaZone))
        #expect(stored?.fields["name"] == .string("Ada's secret city"))
        #expect(stored?.fields["population"] == .int(1815))
        #expect(try await store.record(for: RecordID(recordName: "ada-secret")) == nil)
        // The token the page kept is her session's current one.
        let kept = try #require(saved["token"]?.stringValue)
        #expect(kept != rotated)
        #expect(try await sessions.authenticate(kept, container: Self.container).userRecordName == ada.userRecordName)

        // Signed out: the token forgotten, her records gone from the page, a sign-in prompt.
        let afterSignOut = try #require(steps["signedOutPrivate"])
        #expect(afterSignOut["token"] == .null)
        #expect(afterSignOut["identity"] == "Not signed in")
        #expect(afterSignOut["owner"] == "Private database: sign in to see yours")
        #expect(afterSignOut["rows"] == [])
        #expect(afterSignOut["error"] == """
            AUTHENTICATION_REQUIRED the private database needs a signed-in user (ckWebAuthToken) or a server-to-server key \
            Sign in: paste a web auth token (query users token --user NAME) in the header, to write records and to see your private database.
            """)
        #expect(afterSignOut["prompt"] == 1)

        // Bob's console: his own, empty, private database.
        let second = try #require(steps["secondPrivate"])
        #expect(second["identity"] == .string("Signed in as bob@example.org (\(bob.userRecordName))"))
        #expect(second["owner"] == "Private database of bob@example.org")
        #expect(second["errorShown"] == false)
        #expect(second["rows"] == [])
        #expect(second["token"] != .string(bobToken))
        #expect(steps["signinProblems"]?["problems"] == [])
    }

    @Test func theSignInPopupHandsTheConsoleItsToken() async throws {
        let python = try ConsoleBrowser.requiredPython()
        let provider = try await BackgroundProcess.start(python, [SignInTests.clients.appendingPathComponent("oidc_provider.py").path,
                                                                  "query-console", "s3cret"])
        defer { provider.stop() }
        let issuer = try #require(try JSONValue(parsing: Array(provider.firstLine.utf8))["issuer"]?.stringValue)
        var configuration = WebAuthTests.configuration()
        configuration.identityProvider = IdentityProviderConfiguration(issuer: issuer, clientID: "query-console", clientSecret: "s3cret")
        let store = try await RecordsQueryTests.servedStore()
        let (status, output) = try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            try await ChildProcess.run(python, [ConsoleBrowserTests.script, "http://127.0.0.1:\(server.port)", "--popup", WebAuthTests.apiToken])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)

        let before = try #require(steps["beforePopup"])
        #expect(before["signInShown"] == true)
        #expect(before["pasteShown"] == true)
        #expect(before["identity"] == "Not signed in")
        // The provider signed Ada in (its default user), made on her first sign-in.
        let ada = try #require(try await UserDirectory(store: store).user(emailAddress: "ada@example.org"))
        let popup = try #require(steps["popup"])
        #expect(popup["identity"] == .string("Signed in as Ada Lovelace (\(ada.userRecordName))"))
        #expect(popup["windows"] == 1)
        #expect(popup["signInShown"] == false)
        #expect(popup["signOutShown"] == true)
        #expect(popup["token"]?.stringValue?.isEmpty == false)
        let popupPrivate = try #require(steps["popupPrivate"])
        #expect(popupPrivate["owner"] == "Private database of Ada Lovelace")
        #expect(popupPrivate["rows"] == [])
        // The token the page kept last is her session's current one.
        let token = try #require(popupPrivate["token"]?.stringValue)
        #expect(token != popup["token"]?.stringValue)
        #expect(try await WebAuthSessions(store: store).authenticate(token, container: Self.container).userRecordName == ada.userRecordName)
        #expect(steps["popupProblems"]?["problems"] == [])
    }

    @Test func theConsoleShowsARecordsShareAndTheParticipantsSharedDatabase() async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await RecordsQueryTests.servedStore()
        let directory = UserDirectory(store: store)
        let ada = try await directory.add(ServerUser(givenName: "Ada", familyName: "Lovelace", emailAddress: "ada@example.org", isDiscoverable: true))
        let bob = try await directory.add(ServerUser(givenName: "Bob", emailAddress: "bob@example.org"))
        // Ada's zone Trips: Paris and the Louvre under it, shared read-only with Bob; a diary outside.
        let trips = try Namespace(environment: .production, database: ada.privateDatabase).storedZone("Trips")
        try await store.createZone(trips)
        func city(_ name: String, population: Int64, parent: String? = nil) -> Record {
            var record = Record(recordType: "City", recordID: RecordID(recordName: name, zoneID: trips),
                                fields: ["name": .string(name.capitalized), "population": .int(population)])
            record.parent = parent.map { RecordID(recordName: $0, zoneID: trips) }
            return record
        }
        _ = try await store.save([city("paris", population: 2_100_000), city("louvre", population: 1, parent: "paris"), city("diary", population: 0)])
        let share = try await store.saveShare(RecordShare(
            rootRecordID: RecordID(recordName: "paris", zoneID: trips), owner: ada.userRecordName, recordName: "paris-share",
            participants: [ShareParticipant(userRecordName: bob.userRecordName, permission: .readOnly)]), as: ada.userRecordName)
        _ = try await store.acceptShare(shortGUID: share.shortGUID, as: bob.userRecordName)
        let sessions = WebAuthSessions(store: store)
        let adaToken = try await sessions.open(userRecordName: ada.userRecordName, container: Self.container)
        let bobToken = try await sessions.open(userRecordName: bob.userRecordName, container: Self.container)
        let (status, output) = try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            try await ChildProcess.run(python, [ConsoleBrowserTests.script, "http://127.0.0.1:\(server.port)", "--sharing", WebAuthTests.apiToken,
                                                adaToken, bobToken])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)
        let (adaName, bobName) = (ada.userRecordName, bob.userRecordName)

        // Ada's zone: all three records; the root shows its share, its child none.
        let ownerZone = try #require(steps["ownerZone"])
        #expect(ownerZone["rows"]?.arrayValue?.compactMap(\.stringValue).sorted() == ["diary", "louvre", "paris"])
        #expect(ownerZone["zones"] == [["group": nil, "zones": [["Trips", "Trips"], ["_defaultZone", "_defaultZone"]]]])
        let root = try #require(steps["ownerRoot"])
        #expect(root["headings"] == ["Fields", "System fields", "Share paris-share"])
        #expect(root["summary"] == .string("Shared by \(adaName) · public permission NONE · short GUID \(share.shortGUID)"))
        #expect(root["participants"] == [[.string(adaName), "OWNER", "READ_WRITE", "ACCEPTED", .string(adaName)],
                                         [.string(bobName), "PRIVATE_USER", "READ_ONLY", "ACCEPTED", .string(bobName)]])
        let child = try #require(steps["ownerChild"])
        #expect(child["headings"] == ["Fields", "System fields"])
        #expect(child["participants"] == [])

        // Bob's shared database: Ada's zone under her name, the shared records only.
        let shared = try #require(steps["participantShared"])
        #expect(shared["owner"] == "Shared with Bob: the zones other users share")
        #expect(shared["zones"] == [["group": .string("Shared by Ada Lovelace (\(adaName))"), "zones": [[.string(adaName + "/Trips"), "Trips"]]]])
        #expect(shared["rows"]?.arrayValue?.compactMap(\.stringValue).sorted() == ["louvre", "paris"])
        let participantRoot = try #require(steps["participantRoot"])
        #expect(participantRoot["error"] == .null)
        #expect(participantRoot["headings"] == ["Fields", "System fields", "Share paris-share"])
        #expect(participantRoot["participants"]?.arrayValue?.count == 2)
        #expect(steps["sharingProblems"]?["problems"] == [])
    }
}

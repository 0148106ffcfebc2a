import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import TestSupport
import Testing

/// The console's Subscriptions tab in a real browser (`Clients/console_subscriptions.py`): two
/// subscriptions made through the API are listed with exactly what they hold; deleting one asks
/// first in a modal dialog (Escape cancels it, the focus stays inside), then deletes it through
/// `subscriptions/modify`, and the API no longer lists it.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleSubscriptionsTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_subscriptions.py").path

    @Test(arguments: ConsoleBrowser.engines)
    func twoSubscriptionsAreListedAndOneIsDeletedAfterAConfirmation(engine: TestEngine) async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try engine.makeStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.schema = try CloudKitSchemaDocument(parsing: SchemaAdministrationRoutesTests.schemaText)
        let (status, output, left) = try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let (status, output) = try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)"])
            return (status, output, try await server.send("GET", ServerHarness.path("subscriptions/list")).body)
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)
        #expect(steps["created"] == ["step": "created", "ids": ["big-cities", "lyon"], "errors": []])

        // Both listed, each cell exactly; the tab reached with its key, a tab panel named by its heading.
        let head: JSONValue = ["Subscription ID", "Type", "Record type", "Filter", "Fires on", "Zone", "Actions"]
        let bigCities: JSONValue = ["id": "big-cities", "cells": ["big-cities", "query", "City", "population GREATER_THAN 1000000", "create, update, delete", "_defaultZone"],
                                    "action": ["Delete…", "Delete the subscription big-cities"]]
        let lyon: JSONValue = ["id": "lyon", "cells": ["lyon", "query", "City", "name == \"Lyon\"", "update (once)", "_defaultZone"],
                               "action": ["Delete…", "Delete the subscription lyon"]]
        let scope = "The production environment’s public database: the subscriptions your credential sees."
        #expect(steps["listed"] == ["step": "listed", "head": head, "rows": [bigCities, lyon], "count": "2 subscriptions", "scope": .string(scope),
                                    "selected": "subscriptions", "panel": ["role": "tabpanel", "labelledBy": "subscriptions-title"]])

        // The dialog: modal, the page behind inert, the focus on Cancel and kept inside; Escape cancels it.
        let asked: JSONValue = [
            "role": "alertdialog", "modal": "true", "title": "Delete the subscription lyon?",
            "summary": "The production environment’s public database stops notifying its clients of it, at once and for good: a client that wants it back creates it again.",
            "buttons": ["Delete subscription", "Cancel"], "focused": "subscription-dialog-cancel", "inert": [true, true],
            "tabs": .array(Array(repeating: true, count: 8)),
        ]
        #expect(steps["cancelled"] == ["step": "cancelled", "asked": asked, "focused": "Delete the subscription lyon", "inert": [false, false],
                                       "rows": ["big-cities", "lyon"]])
        #expect(steps["dialogContrast"] == ["step": "dialogContrast", "light": [], "dark": [], "measured": true])

        // Deleted from the keyboard: the other one is left, the dialog gone, the focus on the heading.
        #expect(steps["deleted"] == ["step": "deleted", "pressed": "subscription-dialog-delete", "head": head, "rows": [bigCities], "count": "1 subscription",
                                     "status": "Deleted the subscription lyon.", "dialogShown": false, "focused": "subscriptions-title",
                                     "inert": [false, false], "error": false])
        #expect(steps["api"] == ["step": "api", "ids": ["big-cities"]])
        #expect(steps["contrast"] == ["step": "contrast", "light": [], "dark": [], "measured": true])
        #expect(steps["subscriptionsProblems"]?["problems"] == [])

        // The store holds what the page did.
        #expect(left["subscriptions"]?.arrayValue?.map { $0["subscriptionID"] } == ["big-cities"])
    }

    /// On a server with credentials, a console that holds the API token only lists the
    /// subscriptions (reading) but may not delete one (writing needs a signed-in user): the
    /// dialog shows the server's refusal, and the subscription stays.
    @Test func aDeletionTheCredentialMayNotMakeIsRefusedInTheDialog() async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await RecordsQueryTests.servedStore()
        let ada = try await UserDirectory(store: store).add(ServerUser(givenName: "Ada", emailAddress: "ada@example.org"))
        let adaToken = try await WebAuthSessions(store: store).open(userRecordName: ada.userRecordName, container: ConsoleSharesTests.container)
        let (status, output) = try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)", "--refused", WebAuthTests.apiToken, adaToken])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)
        #expect(steps["refusedCreated"] == ["step": "refusedCreated", "ids": ["every-city"], "errors": []])
        let everyCity: JSONValue = ["id": "every-city", "cells": ["every-city", "query", "City", "every record", "create", "_defaultZone"],
                                    "action": ["Delete…", "Delete the subscription every-city"]]
        #expect(steps["refused"] == ["step": "refused", "rows": [everyCity], "errorShown": true, "code": "AUTHENTICATION_REQUIRED",
                                     "dialogShown": true, "focused": "subscription-dialog-cancel"])
        #expect(steps["refusedAfter"] == ["step": "refusedAfter", "rows": ["every-city"], "inert": [false, false], "api": ["every-city"]])
    }
}

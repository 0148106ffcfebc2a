import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import TestSupport
import Testing

/// The browser and driver the console's tests use: Debian's `chromium` and `chromium-driver`.
enum ConsoleBrowser {
    /// The stores the console's administration is tried on in a browser: SQLite, and PostgreSQL
    /// when configured (always under CI).
    static let engines: [TestEngine] = [.sqlite] + (TestEngine.allCases.contains(.postgres) ? [.postgres] : [])
    static let chromium = ProcessInfo.processInfo.environment["QUERY_TEST_CHROMIUM"] ?? "/usr/bin/chromium"
    static let chromedriver = ProcessInfo.processInfo.environment["QUERY_TEST_CHROMEDRIVER"] ?? "/usr/bin/chromedriver"

    /// Whether the suite can run here: Python (with Selenium) named, and both programs installed.
    static var isAvailable: Bool {
        PythonClient.python != nil && FileManager.default.isExecutableFile(atPath: chromium)
            && FileManager.default.isExecutableFile(atPath: chromedriver)
    }

    /// The Python that drives the browser; a test that runs (under CI, always) fails when it, the
    /// browser or its driver is missing.
    static func requiredPython(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let python = try #require(PythonClient.python, "CI is set, so QUERY_TEST_PYTHON must name the virtual environment's python (with selenium)",
                                  sourceLocation: sourceLocation)
        for program in [chromium, chromedriver] {
            try #require(FileManager.default.isExecutableFile(atPath: program),
                         "CI is set, so \(program) must be installed (apt-get install chromium chromium-driver)", sourceLocation: sourceLocation)
        }
        return python
    }
}

/// The query console in a real browser: headless Chromium driven through Selenium (PyPI, in the
/// virtual environment `.ci/run` makes; `QUERY_TEST_PYTHON` names its interpreter) by
/// `Clients/console_browser.py`, over a server holding the French cities of GeoNames. The script
/// reports what the page shows; this test checks it against what the store answers. Under CI the
/// suite must run (a missing Python, Selenium or Chromium is a failure). With
/// `QUERY_CONSOLE_SCREENSHOTS=DIRECTORY` the script also saves screenshots of the main views.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleBrowserTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_browser.py").path

    /// A SQLite store of France: the 692 French cities of cities15000 (`City`) and the 462 French
    /// airports of airportsdata (`Airport`), each with a `location` field.
    static func france() async throws -> Store {
        let store = try TestEngine.sqlite.makeStore()
        let cities = try await importLines(of: "cities15000.jsonl.gz", extension: "jsonl", type: "City", id: "geonameid",
                                           latitude: "latitude", longitude: "longitude", into: store) { $0.contains(#""countrycode": "FR""#) }
        try #require(cities == 692)
        let airports = try await importLines(of: "airports.csv.gz", extension: "csv", type: "Airport", id: "icao",
                                             latitude: "lat", longitude: "lon", into: store) { $0.hasPrefix(#""icao","#) || $0.contains(#","FR","#) }
        try #require(airports == 462)
        return store
    }

    /// Imports the lines of a compressed data set that `keep` keeps; answers how many records came in.
    static func importLines(
        of dataset: String, extension fileExtension: String, type: String, id: String, latitude: String, longitude: String,
        into store: Store, keep: (Substring) -> Bool
    ) async throws -> Int {
        let (status, output) = try await ChildProcess.run("/usr/bin/env", ["gzip", "-dc", TestEngine.datasetPath(dataset)])
        try #require(status == 0, "gzip failed: \(output.prefix(500))")
        let path = TestEngine.temporaryDatabasePath(type) + "." + fileExtension
        try Data(output.split(separator: "\n").filter(keep).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        var importer = RecordImporter(recordType: type)
        importer.idField = id
        importer.locations = [.init(name: "location", latitudeField: latitude, longitudeField: longitude)]
        // Every index type: the console offers to sort by sortable fields only, and the script sorts by name.
        importer.justInTimeIndexes = .all
        return try await importer.importFile(at: path, into: store).recordCount
    }

    /// An integer as the console shows it in the en-US locale the browser runs in: 2,138,551.
    static func grouped(_ value: Int64) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    /// The rows a page of the console shows for records: number, record name, name, population.
    static func rows(_ records: [Record], from first: Int) -> JSONValue {
        .array(records.enumerated().map { index, record in
            let population: JSONValue = if case .int(let value)? = record.fields["population"] { .string(grouped(value)) } else { .null }
            let name: JSONValue = if case .string(let value)? = record.fields["name"] { .string(value) } else { .null }
            return ["number": .string(String(first + index)), "recordName": .string(record.recordID.recordName), "name": name, "population": population]
        })
    }

    @Test func typingSortingPagingThePlanTheSchemaAndTheMap() async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await Self.france()
        let (status, output, schema) = try await ServerHarness.withServer(store: store) { server in
            let schema = try await server.send("GET", ServerHarness.path("schema")).body
            let (status, output) = try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)"])
            return (status, output, schema)
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        var steps: [String: JSONValue] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("{") {
            let entry = try JSONValue(parsing: Array(line.utf8))
            steps[entry["step"]?.stringValue ?? ""] = entry
        }

        // The page opens on the first record type and runs its query; picking another runs its own.
        let start = try #require(steps["start"])
        #expect(start["viewport"] == [1280, 800])
        #expect(start["types"] == ["Airport", "City"])
        #expect(start["selected"] == ["Airport"])
        #expect(start["headers"] == ["#", "recordName", "name", "city", "country", "elevation", "iata", "icao", "lat", "lid", "location",
                                     "lon", "subd", "tz"])
        let airports = try await store.records(matching: RecordQuery(recordType: "Airport", predicate: .truePredicate), resultsLimit: 20)
        #expect(start["recordNames"] == .array(airports.records.map { .string($0.recordID.recordName) }))
        #expect(start["pageInfo"] == "Page 1 · rows 1–20 of 462")
        let picked = try #require(steps["pick"])
        #expect(picked["selected"] == ["City"])
        #expect(picked["hash"] == "#container=iCloud.com.example.cities&environment=production&database=public&type=City")
        let cities = try await store.records(matching: RecordQuery(recordType: "City", predicate: .truePredicate), resultsLimit: 20)
        #expect(picked["recordNames"] == .array(cities.records.map { .string($0.recordID.recordName) }))

        // At every width nothing lies past the viewport and the results have room; below 640 px
        // the record types are a menu above the query.
        for width in [360, 768, 1400, 1920] {
            let layout = try #require(steps["layout\(width)"], "no layout at \(width) px")
            #expect(layout["width"] == .integer(Int64(width)))
            #expect(layout["past"] == [], "past the viewport at \(width) px")
            #expect(layout["cut"] == [], "text cut at \(width) px")
            #expect(layout["pageScrollsSideways"] == false)
            #expect(layout["hintInCard"] == true)
            #expect((layout["resultsHeight"]?.integerValue ?? 0) >= 150, "results \(layout["resultsHeight"] ?? .null) px tall at \(width) px")
            #expect(layout["rows"] == 20)
            #expect(layout["sidebar"] == .bool(width >= 640))
            #expect(layout["typeMenu"] == .bool(width < 640))
            #expect(layout["tabs"] == ["Results", "Plan", "Map", "Schema", "Roles", "Subscriptions", "Telemetry"])
        }

        // Highlighting: each token in its class; the server's canonical form.
        let highlight = try #require(steps["highlight"])
        #expect(highlight["tokens"] == [
            ["tok-key", "population"], ["tok-operator", ">"], ["tok-number", "50000"], ["tok-keyword", "AND"],
            ["tok-key", "timezone"], ["tok-operator", "=="], ["tok-string", "\"Europe/Paris\""],
        ])
        #expect(highlight["check"]?["state"] == "valid")
        #expect(highlight["check"]?["text"] == #"✓ Valid under cloudkit rules: population > 50000 AND timezone == "Europe/Paris""#)
        #expect(highlight["check"]?["caret"] == .null)
        #expect(highlight["check"]?["marked"] == [])

        // An invalid predicate: the parser's own message, and the caret under the whole token where it stopped.
        let invalidText = #"population > AND name == "x""#
        var syntax: SyntaxError?
        do { _ = try FormatPredicate(format: invalidText) } catch let error as FormatPredicateError {
            if case .syntax(let found) = error { syntax = found }
        }
        let expectedError = try #require(syntax)
        #expect(expectedError.offset == 13)
        let invalid = try #require(steps["invalid"])
        #expect(invalid["check"]?["state"] == "invalid")
        #expect(invalid["check"]?["text"]?.stringValue?.hasPrefix("✗ \(expectedError.message)\n") == true)
        #expect(invalid["check"]?["caret"] == .string(invalidText + "\n" + String(repeating: " ", count: 13) + "^^^"))
        #expect(invalid["check"]?["marked"] == ["AND"])
        #expect(invalid["tokens"]?.arrayValue?.contains(["tok-keyword tok-error-mark", "AND"]) == true)

        // Checked against the schema as you type: an unknown field, its caret, and a one-click fix.
        let unknown = try #require(steps["unknownField"])
        #expect(unknown["check"]?["state"] == "invalid")
        #expect(unknown["check"]?["text"]?.stringValue?.hasPrefix("✗ Field 'populaton' does not exist in record type 'City'; did you mean 'population'?\n") == true)
        #expect(unknown["check"]?["caret"] == "populaton > 50000\n^^^^^^^^^")
        #expect(unknown["check"]?["marked"] == ["populaton"])
        #expect(unknown["fixes"] == ["Use population"])
        // A failed Run: the error once (in the check), the last results kept and marked stale.
        let failed = try #require(steps["failedRun"])
        #expect(failed["messagesShown"] == 1)
        #expect(failed["requestError"] == false)
        #expect(failed["stale"] == "The last Run failed (BAD_REQUEST): these are the results of the query that ran before.")
        #expect(failed["staleMarked"] == true)
        #expect(failed["summary"] == "City · the query failed")
        #expect(failed["kept"] == true)
        let fixed = try #require(steps["fixed"])
        #expect(fixed["predicate"] == "population > 50000")
        #expect(fixed["check"]?["state"] == "valid")
        #expect(fixed["stale"] == "The predicate changed: these results are of the previous one. Enter runs it.")
        // A value of another type than the field's.
        let mismatch = try #require(steps["mismatch"])
        #expect(mismatch["check"]?["text"]?.stringValue?.hasPrefix(#"✗ population is INT64 and "abc" is a string: the comparison can match no record"#) == true)
        #expect(mismatch["check"]?["caret"] == .string(#"population == "abc""# + "\n^^^^^^^^^^"))
        #expect(mismatch["check"]?["marked"] == ["population"])
        // A rule refused (CloudKit has no OR): the caret under the keyword, not at the end of the input.
        let ruleRefused = try #require(steps["ruleRefused"])
        #expect(ruleRefused["check"]?["text"]?.stringValue?.hasPrefix(#"✗ OR is not supported in CloudKit queries: population > 50000 OR name == "x""#) == true)
        #expect(ruleRefused["check"]?["caret"] == .string(#"population > 50000 OR name == "x""# + "\n" + String(repeating: " ", count: 19) + "^^"))
        #expect(ruleRefused["check"]?["marked"] == ["OR"])
        // Parsing stopped at the end of the input: the caret after the last character.
        #expect(steps["unfinished"]?["check"]?["caret"] == "population >\n            ^")

        // Sorted by population (descending) then name, ten rows a page, paged through the cursor.
        let query = try RecordQuery(recordType: "City", predicate: FormatPredicate(format: "population > 50000"),
                                    sorts: [Sort("population", ascending: false), Sort("name")])
        let first = try await store.records(matching: query, resultsLimit: 10)
        let secondCursor = try #require(first.cursor)
        let second = try await store.records(continuingMatchFrom: secondCursor, resultsLimit: 10)
        let third = try await store.records(continuingMatchFrom: try #require(second.cursor), resultsLimit: 10)
        let matching = try await store.count(ofType: "City", matching: FormatPredicate(format: "population > 50000"))
        #expect(matching > 30)
        let page1 = try #require(steps["page1"])
        #expect(page1["sorts"] == [["population", "↓ desc"], ["name", "↑ asc"]])
        #expect(page1["rows"] == Self.rows(first.records, from: 1))
        #expect(page1["rows"]?.arrayValue?.first?["name"] == "Paris")
        #expect(page1["pageInfo"] == .string("Page 1 · rows 1–10 of \(Self.grouped(Int64(matching)))"))
        #expect(page1["previousEnabled"] == false)
        #expect(page1["nextEnabled"] == true)
        let page2 = try #require(steps["page2"])
        #expect(page2["rows"] == Self.rows(second.records, from: 11))
        #expect(page2["pageInfo"] == .string("Page 2 · rows 11–20 of \(Self.grouped(Int64(matching)))"))
        #expect(page2["previousEnabled"] == true)
        #expect(steps["page3"]?["rows"] == Self.rows(third.records, from: 21))
        #expect(steps["back"]?["rows"] == Self.rows(second.records, from: 11))
        #expect(steps["back"]?["pageInfo"] == .string("Page 2 · rows 11–20 of \(Self.grouped(Int64(matching)))"))

        // The plan names the index the store uses.
        let plan = try await store.explain(ofType: "City", matching: query.predicate, sorts: query.sorts, limit: 11)
        #expect(plan.indexesUsed == ["City$population$index"])
        let shownPlan = try #require(steps["plan"])
        #expect(shownPlan["indexes"] == .array(plan.indexesUsed.map(JSONValue.string)))
        #expect(shownPlan["residual"] == "nothing: SQL does it all")
        #expect(shownPlan["plan"] == .string(plan.description))

        // The schema view shows each field of the schema route, its type and its indexes.
        let expectedTypes: [JSONValue] = (schema["recordTypes"]?.arrayValue ?? []).map { type in
            ["recordType": type["recordType"] ?? .null, "fields": .array((type["fields"]?.arrayValue ?? []).map { field in
                [field["fieldName"] ?? .null, field["type"] ?? .null, field["indexes"] ?? .null]
            })]
        }
        #expect(expectedTypes.count == 2)
        #expect(steps["schema"]?["types"] == .array(expectedTypes))
        #expect(steps["schema"]?["types"]?.arrayValue?.last?["fields"]?.arrayValue?.contains(["location", "LOCATION", ["queryable"]]) == true)

        // The map draws one point per record of the page shown (page 2), each titled by its city.
        let map = try #require(steps["map"])
        #expect(map["count"] == 10)
        #expect(map["dataPoints"] == "10")
        #expect(map["inside"] == true)
        #expect(map["recordNames"] == .array(second.records.map { .string($0.recordID.recordName) }))
        let titles = map["titles"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(titles.count == 10)
        for (title, record) in zip(titles, second.records) {
            guard case .string(let name)? = record.fields["name"], case .location(let location)? = record.fields["location"] else {
                Issue.record("\(record.recordID.recordName) has no name or location")
                continue
            }
            #expect(title == "\(name) (location: \(Self.javaScriptNumber(location.latitude)), \(Self.javaScriptNumber(location.longitude)))")
        }
        #expect((map["graticule"]?.integerValue ?? 0) >= 4)
        let map200 = try #require(steps["map200"])
        #expect(map200["rows"] == .integer(Int64(min(200, matching))))
        #expect(map200["count"] == .integer(Int64(min(200, matching))))
        #expect(map200["inside"] == true)
        // Names where they fit: none over another, none past the edge; the others on hover.
        for step in [map, map200] {
            let boxes = (step["labels"]?.arrayValue ?? []).map { ($0.arrayValue ?? []).compactMap(\.doubleValue) }
            let size = (step["size"]?.arrayValue ?? []).compactMap(\.doubleValue)
            #expect(!boxes.isEmpty && size.count == 2)
            for (index, box) in boxes.enumerated() where box.count == 4 && size.count == 2 {
                #expect(box[0] >= 0 && box[1] >= 0 && box[0] + box[2] <= size[0] + 0.5 && box[1] + box[3] <= size[1] + 0.5, "label \(index) \(box) past the map")
                for other in boxes[(index + 1)...] where other.count == 4 {
                    let apart = box[0] + box[2] <= other[0] || other[0] + other[2] <= box[0] || box[1] + box[3] <= other[1] || other[1] + other[3] <= box[1]
                    #expect(apart, "labels \(box) and \(other) overlap")
                }
            }
        }

        // Nothing but the server's own routes was fetched, and the browser reported no problem
        // (a Content-Security-Policy violation would be one).
        // The only errors are the failed Run's: its query, its count and its plan, refused (400) for the unknown field.
        let network = try #require(steps["network"])
        let refused = (network["problems"]?.arrayValue ?? []).compactMap(\.stringValue)
            .filter { $0.hasSuffix(" - Failed to load resource: the server responded with a status of 400 (Bad Request)") }
        // The three requests run at once: the browser logs their refusals in either order.
        #expect(refused.compactMap { $0.components(separatedBy: "/public/").last?.components(separatedBy: " ").first }.sorted() == ["records/count", "records/explain", "records/query"])
        #expect(network["problems"]?.arrayValue?.count == refused.count)
        for resource in network["resources"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
            #expect(resource.hasPrefix("http://127.0.0.1:") && resource.contains("/database/1/iCloud.com.example.cities/production/public/"), "fetched \(resource)")
        }

        // A shared link restores the query: the same rows, sorts and page size, and the same address.
        let shared = try #require(steps["shared"])
        #expect(shared["rows"] == Self.rows(first.records, from: 1))
        #expect(shared["sorts"] == [["population", "↓ desc"], ["name", "↑ asc"]])
        #expect(shared["predicate"] == "population > 50000")
        #expect(shared["pageSize"] == "10")
        #expect(shared["selected"] == ["City"])
        #expect(shared["hash"] == shared["sharedHash"])

        // The main flow by keyboard alone.
        let keyboard = try #require(steps["keyboard"])
        let big = try await store.records(matching: RecordQuery(recordType: "City", predicate: FormatPredicate(format: "population > 100000"),
                                                                 sorts: [Sort("population", ascending: false), Sort("name")]), resultsLimit: 10)
        let bigNames = big.records.map { JSONValue.string($0.recordID.recordName) }
        #expect(keyboard["rows"] == .array(bigNames))
        #expect(keyboard["focused"] == .array(["predicate"] + Array(bigNames.prefix(2)) + [bigNames[1]]))
        #expect(keyboard["opened"] == bigNames[1])
        #expect(keyboard["tabs"] == ["plan", "results"])
        #expect(keyboard["recalled"] == "population > 100000")
        #expect(keyboard["hash"] == "#container=iCloud.com.example.cities&environment=production&database=public&type=City&predicate=population+%3E+100000&sort=population:desc,name:asc&pageSize=10")

        // Sorting by a click on a header; the first columns stay in view; a new type starts at the left.
        let table = try #require(steps["table"])
        let big100k = try FormatPredicate(format: "population > 100000")
        let byName = try await store.records(matching: RecordQuery(recordType: "City", predicate: big100k,
                                                                    sorts: [Sort("name"), Sort("population", ascending: false)]), resultsLimit: 10)
        #expect(table["byName"]?["rows"] == .array(byName.records.map { .string($0.recordID.recordName) }))
        #expect(table["byName"]?["sorts"] == [["name", "↑ asc"], ["population", "↓ desc"]])
        #expect(table["byName"]?["ariaSort"] == "ascending")
        let byNameDown = try await store.records(matching: RecordQuery(recordType: "City", predicate: big100k,
                                                                        sorts: [Sort("name", ascending: false), Sort("population", ascending: false)]), resultsLimit: 10)
        #expect(table["byNameDescending"]?["rows"] == .array(byNameDown.records.map { .string($0.recordID.recordName) }))
        #expect(table["byNameDescending"]?["sorts"] == [["name", "↓ desc"], ["population", "↓ desc"]])
        #expect(table["unsortable"] == 0)
        #expect((table["stuck"]?["scrolled"]?.integerValue ?? 0) > 0)
        #expect(table["stuck"]?["fields"] == ["row-number", "record-name", "name"])
        let offsets = table["stuck"]?["visible"]?.arrayValue?.compactMap(\.integerValue) ?? []
        #expect(offsets.count == 3 && offsets[0] == 0 && offsets[1] > 0 && offsets[2] > offsets[1], "\(offsets)")
        #expect(table["scrollAfterTypeChange"] == 0)
        // The loading indicator, and dark mode.
        let looks = try #require(steps["looks"])
        #expect(looks["loadingHidden"] == true)
        #expect(looks["dark"] == ["rgb(18, 23, 34)", "rgb(27, 33, 48)"])
        #expect(looks["light"] == ["rgb(243, 245, 248)", "rgb(255, 255, 255)"])
    }

    @Test func withCredentialsThePageAsksForTheAPITokenAndSendsIt() async throws {
        let python = try ConsoleBrowser.requiredPython()
        var credentials = ServerCredentials()
        credentials.apiTokens = ["console-token"]
        let store = try await RecordsQueryTests.servedStore()
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials)
        let (status, output) = try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)", "--token", "console-token"])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        var steps: [String: JSONValue] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("{") {
            let entry = try JSONValue(parsing: Array(line.utf8))
            steps[entry["step"]?.stringValue ?? ""] = entry
        }
        let locked = try #require(steps["locked"])
        #expect(locked["tokenVisible"] == true)
        #expect(locked["error"]?.stringValue?.hasPrefix("AUTHENTICATION_REQUIRED ") == true)
        #expect(locked["types"] == [])
        let unlocked = try #require(steps["unlocked"])
        #expect(unlocked["errorShown"] == false)
        #expect(unlocked["types"] == ["City"])
        #expect(unlocked["rows"] == 12)
        // Writes need a signed-in user or a server-to-server key: the panel shows the API's
        // refusal, and nothing changes.
        let refused = try #require(steps["writeRefused"])
        #expect(refused["state"] == "edit")
        #expect(refused["error"]?.stringValue?.hasPrefix("AUTHENTICATION_REQUIRED ") == true)
        let refusedName = try #require(refused["recordName"]?.stringValue)
        #expect(try await store.record(for: RecordID(recordName: refusedName))?.fields["name"] != .string("Changed with a token"))
        let resources = unlocked["resources"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(resources.contains { $0.hasSuffix("/public/records/query?ckAPIToken=console-token") })
        #expect(resources.contains { $0.hasSuffix("/public/schema?ckAPIToken=console-token") })
    }

    @Test func theAdministratorGivesAndTakesRolesInTheRolesViewAfterConfirming() async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.define(RoleRoutesTests.schema, in: store)
        let directory = UserDirectory(store: store)
        let ada = try await directory.add(ServerUser(givenName: "Ada", emailAddress: "ada@example.org"))
        let bob = try await directory.add(ServerUser(givenName: "Bob", emailAddress: "bob@example.org"))
        try await store.assignRole("Editor", to: bob.userRecordName)
        var credentials = ServerCredentials()
        credentials.apiTokens = ["console-token"]
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials)
        configuration.administratorToken = "console-admin-token"
        let (status, output) = try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)", "--roles", "console-token", "console-admin-token"])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try Self.steps(output)

        #expect(steps["adminField"] == ["step": "adminField", "visible": true, "label": "Administrator token"])
        // The API token alone is refused: the server's reason, in the view.
        let refused = try #require(steps["refused"])
        #expect(refused["error"] == .string("ACCESS_DENIED " + RoleRoutesTests.refusal + "; an API token or a signed-in user is never an administrator"))
        #expect(refused["roles"] == [])
        #expect(refused["options"] == [])
        // With the administrator token (kept for the tab's session): every declared role and its users.
        let listed = try #require(steps["listed"])
        #expect(listed["kept"] == true)
        #expect(listed["error"] == .null)
        #expect(listed["options"] == ["Moderator", "Editor"])
        #expect(listed["roles"] == [["name": "Moderator", "users": []], ["name": "Editor", "users": [[.string(bob.userRecordName), "bob@example.org"]]]])
        // Giving a role asks first, saying exactly what changes; Cancel changes nothing.
        let assigned = try #require(steps["assigned"])
        #expect(assigned["asked"] == ["text": "Give Moderator to ada@example.org?", "button": "Give Moderator", "focused": "role-confirm-yes"])
        #expect(assigned["cancelled"] == ["confirmation": nil, "focused": "role-assign-user",
                                          "roles": [["name": "Moderator", "users": []], ["name": "Editor", "users": [[.string(bob.userRecordName), "bob@example.org"]]]]])
        #expect(assigned["error"] == .null)
        #expect(assigned["note"] == "Gave Moderator to ada@example.org.")
        #expect(assigned["user"] == "")
        #expect(assigned["roles"] == [["name": "Moderator", "users": [[.string(ada.userRecordName), "ada@example.org"]]],
                                      ["name": "Editor", "users": [[.string(bob.userRecordName), "bob@example.org"]]]])
        // Taking one away, from the user's row, by keyboard.
        let removed = try #require(steps["removed"])
        #expect(removed["label"] == "Remove Editor from bob@example.org")
        #expect(removed["asked"] == ["text": "Take Editor from bob@example.org?", "button": "Remove Editor", "focused": "role-confirm-yes"])
        #expect(removed["note"] == "Took Editor from bob@example.org.")
        #expect(removed["focused"] == ["H3", "Editor"])
        #expect(removed["roles"] == [["name": "Moderator", "users": [[.string(ada.userRecordName), "ada@example.org"]]], ["name": "Editor", "users": []]])
        // A user the server does not know: its refusal shown, the text kept to correct.
        let unknown = try #require(steps["unknownUser"])
        #expect(unknown["error"] == "NOT_FOUND no user has the email address 'nobody@example.org' (see query users list)")
        #expect(unknown["user"] == "nobody@example.org")
        #expect(steps["rolesProblems"]?["problems"] == [])

        // The store holds what the console did.
        #expect(try await store.roleAssignments() == ["Moderator": [ada.userRecordName]])
    }

    /// The JSON lines of a script's output by step.
    static func steps(_ output: String) throws -> [String: JSONValue] {
        var steps: [String: JSONValue] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("{") {
            let entry = try JSONValue(parsing: Array(line.utf8))
            steps[entry["step"]?.stringValue ?? ""] = entry
        }
        return steps
    }

    /// Checks that the record panel shows a record as records/lookup answers it: each field's
    /// value and type, a schema field the record lacks as null, and the system fields.
    static func expectShown(_ shown: JSONValue?, _ lookup: JSONValue?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .object(let fields)? = lookup?["fields"], case .object(let shownFields)? = shown?["fields"] else {
            Issue.record("no fields: \(String(describing: shown)) / \(String(describing: lookup))", sourceLocation: sourceLocation)
            return
        }
        for (name, field) in fields {
            #expect(shownFields[name]?["value"] == field["value"], "\(name)", sourceLocation: sourceLocation)
            #expect(shownFields[name]?["type"] == field["type"], "\(name)", sourceLocation: sourceLocation)
        }
        for (name, field) in shownFields where fields[name] == nil {
            #expect(field["value"] == .null, "\(name) is not in the record", sourceLocation: sourceLocation)
        }
        let system = shown?["system"]
        #expect(system?["recordName"] == lookup?["recordName"], sourceLocation: sourceLocation)
        #expect(system?["recordType"] == lookup?["recordType"], sourceLocation: sourceLocation)
        #expect(system?["recordChangeTag"] == lookup?["recordChangeTag"], sourceLocation: sourceLocation)
        #expect(system?["zone"] == lookup?["zoneID"]?["zoneName"], sourceLocation: sourceLocation)
        for stamp in ["created", "modified"] {
            let milliseconds = lookup?[stamp]?["timestamp"]?.integerValue
            #expect(milliseconds != nil && system?[stamp] == .string(String(milliseconds ?? 0)), "\(stamp)", sourceLocation: sourceLocation)
        }
    }

    /// The fields of the cities of `RecordsQueryTests.cities()` as records/lookup answers them.
    static func cityFields(name: String, population: Int64, country: String, latitude: Double, longitude: Double, tags: [String]) -> JSONValue {
        [
            "name": ["value": .string(name), "type": "STRING"], "population": ["value": .integer(population), "type": "INT64"],
            "countrycode": ["value": .string(country), "type": "STRING"],
            "location": ["value": ["latitude": .number(latitude), "longitude": .number(longitude)], "type": "LOCATION"],
            "tags": ["value": .array(tags.map(JSONValue.string)), "type": "STRING_LIST"],
            "description": ["value": .string("\(name) is a city in \(country)"), "type": "STRING"],
        ]
    }

    @Test func theRecordPanelShowsEveryFieldAndWritesThroughModifyWithTheChangeTag() async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await RecordsQueryTests.servedStore()
        let (status, output, order) = try await ServerHarness.withServer(store: store) { server in
            let order = try await store.records(matching: RecordQuery(recordType: "City", predicate: .truePredicate), resultsLimit: 20)
                .records.map(\.recordID.recordName)
            let (status, output) = try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)", "--edit"])
            return (status, output, order)
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try Self.steps(output)

        // Every field of the record, whole lists and the system fields, as records/lookup answers.
        let opened = try #require(steps["detail"])
        #expect(opened["shown"]?["state"] == "view")
        #expect(opened["shown"]?["title"] == "City paris")
        #expect(opened["lookup"]?["fields"] == Self.cityFields(name: "Paris", population: 2_138_551, country: "FR", latitude: 48.8566,
                                                               longitude: 2.3522, tags: ["capital", "river"]))
        Self.expectShown(opened["shown"], opened["lookup"])
        #expect(opened["shown"]?["fields"]?["tags"]?["items"] == ["capital", "river"])
        #expect(steps["detailLayout360"]?["past"] == [])
        #expect(steps["detailLayout360"]?["pageScrollsSideways"] == false)

        // Keyboard: Escape gives the focus back to the row, the arrows move, Enter opens.
        let paris = try #require(order.firstIndex(of: "paris"))
        #expect(steps["keyboard"] == ["step": "keyboard", "focused": "paris", "below": .string(order[paris + 1]), "opened": "paris"])

        // Nothing is written without Save, nor when a value does not fit its type.
        #expect(steps["unsaved"]?["population"] == 2_138_551)
        #expect(steps["invalid"]?["state"] == "edit")
        #expect(steps["invalid"]?["error"] == #"INVALID population: "abc" is not a whole number"#)

        // Saved through records/modify: a new change tag, the panel showing the stored record.
        let edited = try #require(steps["edited"])
        #expect(edited["error"] == .null)
        #expect(edited["lookup"]?["fields"]?["population"] == ["value": 2_200_000, "type": "INT64"])
        #expect(edited["lookup"]?["fields"]?["tags"] == ["value": ["capital", "river", "seine"], "type": "STRING_LIST"])
        #expect(edited["lookup"]?["recordChangeTag"] != opened["lookup"]?["recordChangeTag"])
        Self.expectShown(edited["shown"], edited["lookup"])

        // A second client's change: CONFLICT, the server's version beside the edit; overwriting
        // writes the edited field over the server's record (keeping the other client's change).
        let conflict = try #require(steps["conflict"])
        #expect(conflict["rows"] == [["name", "Paris", "Paris (console)", "Paris"], ["population", "2,200,000", "not edited", "2,300,000"]])
        #expect(conflict["message"]?.stringValue?.hasPrefix("This record was changed by someone else since you opened it (change tag \(edited["lookup"]?["recordChangeTag"]?.stringValue ?? "?") is now ") == true)
        let overwritten = try #require(steps["overwritten"])
        #expect(overwritten["lookup"]?["fields"]?["name"] == ["value": "Paris (console)", "type": "STRING"])
        #expect(overwritten["lookup"]?["fields"]?["population"] == ["value": 2_300_000, "type": "INT64"])
        Self.expectShown(overwritten["shown"], overwritten["lookup"])
        // Or the server's version is taken, and the edit dropped.
        let reloaded = try #require(steps["reloaded"])
        #expect(reloaded["lookup"]?["fields"]?["name"] == ["value": "Paris", "type": "STRING"])
        Self.expectShown(reloaded["shown"], reloaded["lookup"])

        // A new record from a form typed by the schema, then a copy of it under another name.
        let created = try #require(steps["created"])
        #expect(created["form"] == ["countrycode:STRING", "description:STRING", "location:LOCATION", "name:STRING", "population:INT64", "tags:STRING_LIST"])
        #expect(created["error"] == .null)
        let toulouse = Self.cityFields(name: "Toulouse", population: 504_078, country: "FR", latitude: 43.6047, longitude: 1.4442, tags: ["river", "rose"])
        #expect(created["lookup"]?["fields"] == toulouse)
        Self.expectShown(created["shown"], created["lookup"])
        let duplicated = try #require(steps["duplicated"])
        guard case .object(var copy) = toulouse else { return }
        copy["name"] = ["value": "Toulouse bis", "type": "STRING"]
        #expect(duplicated["lookup"]?["fields"] == .object(copy))
        Self.expectShown(duplicated["shown"], duplicated["lookup"])

        // Delete asks first; then the record is gone from the store and the page.
        // A deletion confirmed after another client changed the record: the change shown, nothing
        // deleted until "Delete anyway".
        let deleteConflict = try #require(steps["deleteConflict"])
        #expect(deleteConflict["error"] == .null)
        #expect(deleteConflict["stillThere"] == "toulouse-2")
        #expect(deleteConflict["button"] == "Delete anyway")
        #expect(deleteConflict["message"]?.stringValue?.hasSuffix("Nothing was deleted.") == true)
        #expect(deleteConflict["rows"] == [["population", "504,078", "deleted", "504,079"]])
        let deleted = try #require(steps["deleted"])
        #expect(deleted["confirm"] == "Delete City toulouse-2? It cannot be undone.")
        #expect(deleted["kept"] == "toulouse-2")
        #expect(deleted["lookup"]?["serverErrorCode"] == "NOT_FOUND")
        #expect(deleted["rows"]?.arrayValue?.contains("toulouse") == true)
        #expect(deleted["rows"]?.arrayValue?.contains("toulouse-2") == false)
        #expect(steps["editProblems"]?["problems"] == [])
        // (A script the driver injects counts as another origin's: the browser hides its message.)
        #expect(steps["scriptError"]?["error"] == "SCRIPT_ERROR the console failed: Script error.")
        // Without credentials there is no sign-in: the private database is the server's one user's.
        let local = try #require(steps["localPrivate"])
        #expect(local["owner"] == "Private database of _defaultOwner")
        #expect(local["user"] == "_defaultOwner")
        #expect(local["identity"] == .null)
        #expect(local["token"] == .null)

        // What the store holds at the end.
        #expect(try await store.record(for: RecordID(recordName: "toulouse-2")) == nil)
        #expect(try await store.record(for: RecordID(recordName: "toulouse"))?.fields["population"] == .int(504_078))
        let stored = try #require(try await store.record(for: RecordID(recordName: "paris")))
        #expect(stored.fields["name"] == .string("Paris"))
        #expect(stored.fields["population"] == .int(2_300_000))
        #expect(stored.fields["tags"] == .list([.string("capital"), .string("river"), .string("seine")]))
    }

    /// The built `query` executable (the test bundle sits beside it).
    static let queryExecutable: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        while folder.pathComponents.count > 1, !FileManager.default.fileExists(atPath: folder.appendingPathComponent("query").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("query")
    }()

    @Test func exportWritesEveryPageAsQueryExportDoes() async throws {
        let python = try ConsoleBrowser.requiredPython()
        TestEngine.registerEngines()
        let path = TestEngine.temporaryDatabasePath("console-export")
        let store = try Store.open(StoreLocation("sqlite:" + path))
        try await store.define(RecordTypeSchema(name: "City", justInTimeIndexes: .all))
        _ = try await store.save(RecordsQueryTests.cities())
        let folder = TestFolders.make("console-export-downloads").path
        let (status, output) = try await ServerHarness.withServer(store: store) { server in
            try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)", "--export", folder])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        var exports: [String: JSONValue] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("{") {
            let entry = try JSONValue(parsing: Array(line.utf8))
            if entry["step"] == "export", let format = entry["output"]?.stringValue { exports[format] = entry }
            if entry["step"] == "exportProblems" { #expect(entry["problems"] == []) }
        }
        for format in ["jsonl", "csv"] {
            let (exitStatus, expected) = try await ChildProcess.run(Self.queryExecutable.path,
                                                                    ["export", "--db", "sqlite:" + path, "City", "--output", format, "--progress", "none"])
            try #require(exitStatus == 0, "query export failed: \(expected)")
            let exported = try #require(exports[format], "no \(format) export")
            #expect(exported["text"] == .string(expected), "\(format)")
            #expect(exported["status"] == "Exported 12 records (2 pages)")
            #expect(exported["pageRows"] == 10)
        }
        #expect(exports["jsonl"]?["text"]?.stringValue?.split(separator: "\n").count == 12)
    }

    /// A double as JavaScript's `String(number)` writes it (for the coordinates GeoNames has, five decimals at most).
    static func javaScriptNumber(_ value: Double) -> String {
        value.rounded() == value ? String(Int64(value)) : String(value)
    }
}

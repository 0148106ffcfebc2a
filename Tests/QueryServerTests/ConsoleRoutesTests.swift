import Crypto
import EngineTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// The routes the query console calls beyond CloudKit's (`schema`, `records/explain`,
/// `predicates/check`), and the console page itself at `GET /`, through a real socket.
@Suite struct ConsoleRoutesTests {
    @Test func theConsolePageIsServedWithAStrictContentSecurityPolicy() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let page = try await server.fetchText("/")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            let document = ConsoleDocument(tokenRequired: false, rules: .cloudKit)
            #expect(page.body == document.html)
            #expect(page.headers["content-security-policy"] == document.contentSecurityPolicy)
            let policy = try #require(page.headers["content-security-policy"])
            let directives = policy.components(separatedBy: "; ")
            #expect(directives.first == "default-src 'none'")
            #expect(directives.contains("connect-src 'self'"))
            #expect(directives.contains("base-uri 'none'"))
            #expect(directives.contains("frame-ancestors 'none'"))
            // Only the page's own inline script and style, by hash: no origin, no 'unsafe-inline'.
            // Each of the page's scripts (the links', the administration's, the telemetry's, the subscriptions', acting as a user's, then the console's) by its hash.
            #expect(ConsoleDocumentHash.scripts.count == 6)
            #expect(directives.filter { $0.hasPrefix("script-src ") } == ["script-src " + ConsoleDocumentHash.scripts.map { "'\($0)'" }.joined(separator: " ")])
            #expect(directives.filter { $0.hasPrefix("style-src ") } == ["style-src '\(ConsoleDocumentHash.style)'"])
            #expect(!policy.contains("http") && !policy.contains("unsafe") && !policy.contains("*"))
            #expect(page.headers["x-content-type-options"] == "nosniff")
            // The page loads nothing: no external script, style, image or font.
            for needle in ["src=", "@import", "url(", "https:", "//cdn"] {
                #expect(!page.body.contains(needle), "the page holds \(needle)")
            }
            // Its one link, the icon, is empty data (so that the browser asks for no /favicon.ico).
            #expect(page.body.components(separatedBy: "href=").count == 2)
            #expect(page.body.contains(#"<link rel="icon" href="data:,">"#))
            #expect(page.body.contains(#"data-container="iCloud.com.example.cities""#))
            #expect(page.body.contains(#"data-token-required="false""#))
            #expect(page.body.contains(#"data-rules="cloudkit""#))
        }
    }

    @Test func thePageNamesTheServedContainerAndAsksForATokenWhenCredentialsAreSet() async throws {
        var credentials = ServerCredentials()
        credentials.apiTokens = ["secret-token"]
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, container: "iCloud.org.example.a&b",
                                                         predicateRules: .full, credentials: credentials)
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let page = try await server.fetchText("/")
            #expect(page.status == 200)
            #expect(page.body.contains(#"data-container="iCloud.org.example.a&amp;b""#))
            #expect(page.body.contains(#"data-token-required="true""#))
            // No identity provider: users paste a token (query users token), there is no sign-in page to open.
            #expect(page.body.contains(#"data-sign-in="""#))
            #expect(page.body.contains(#"data-rules="full""#))
            // The extension routes need the token like every other route.
            let path = "/database/1/iCloud.org.example.a&b/production/public/schema"
            let refused = try await server.send("GET", path)
            #expect(refused.status == 421)
            #expect(refused.errorCode == "AUTHENTICATION_REQUIRED")
            let allowed = try await server.send("GET", path + "?ckAPIToken=secret-token")
            #expect(allowed.status == 200)
            #expect(allowed.body == ["recordTypes": []])
        }
    }

    @Test func withAnIdentityProviderThePageNamesTheSignInPage() async throws {
        var credentials = ServerCredentials()
        credentials.apiTokens = ["secret-token"]
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials)
        configuration.identityProvider = IdentityProviderConfiguration(issuer: "https://id.example", clientID: "query", clientSecret: "s3cret")
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let page = try await server.fetchText("/")
            #expect(page.body.contains(#"data-token-required="true" data-sign-in="/auth/signin""#))
        }
        // A provider without API tokens signs nobody in (a web auth token counts only beside an API token).
        configuration.credentials = ServerCredentials()
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let page = try await server.fetchText("/")
            #expect(page.body.contains(#"data-token-required="false" data-sign-in="""#))
        }
    }

    @Test func settingsAreEscapedInThePage() {
        let document = ConsoleDocument(container: #"a"b<c>&'d"#, tokenRequired: false, rules: .coreData)
        #expect(document.html.contains(#"<body data-container="a&quot;b&lt;c&gt;&amp;&#39;d" data-environment="production" data-database="public" data-token-required="false" data-sign-in="" data-rules="coredata">"#))
    }

    @Test func schemaListsEachTypeWithItsFieldsTypesAndIndexes() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await store.define(RecordTypeSchema(name: "Note", fields: [
            FieldSchema(name: "title", type: .string, isSearchable: true),
            FieldSchema(name: "done", type: .bool, isQueryable: true, isSortable: false),
            FieldSchema(name: "attachment", type: .bytes, isQueryable: false, isSortable: false),
        ]))
        try await ServerHarness.withServer(store: store) { server in
            let expected: JSONValue = ["recordTypes": [
                ["recordType": "City", "fields": [
                    ["fieldName": "countrycode", "type": "STRING", "storeType": "string", "indexes": ["queryable", "sortable", "searchable"]],
                    ["fieldName": "description", "type": "STRING", "storeType": "string", "indexes": ["queryable", "sortable", "searchable"]],
                    ["fieldName": "location", "type": "LOCATION", "storeType": "location", "indexes": ["queryable"]],
                    ["fieldName": "name", "type": "STRING", "storeType": "string", "indexes": ["queryable", "sortable", "searchable"]],
                    ["fieldName": "population", "type": "INT64", "storeType": "int64", "indexes": ["queryable", "sortable"]],
                    ["fieldName": "tags", "type": "STRING_LIST", "storeType": "list of string", "indexes": ["queryable"]],
                ]],
                ["recordType": "Note", "fields": [
                    ["fieldName": "title", "type": "STRING", "storeType": "string", "indexes": ["queryable", "sortable", "searchable"]],
                    ["fieldName": "done", "type": "INT64", "storeType": "bool", "indexes": ["queryable"]],
                    ["fieldName": "attachment", "type": "BYTES", "storeType": "bytes", "indexes": []],
                ]],
            ]]
            let viaGet = try await server.send("GET", ServerHarness.path("schema"))
            #expect(viaGet.status == 200)
            #expect(viaGet.body == expected)
            let viaPost = try await server.post("schema", [:])
            #expect(viaPost.status == 200)
            #expect(viaPost.body == expected)
            // The development environment has a schema of its own, empty until development saves.
            let development = try await server.post("schema", [:], environment: "development")
            #expect(development.status == 200)
            #expect(development.body == ["recordTypes": []])
        }
    }

    @Test func explainAnswersThePlanAndTheIndexesOfTheQuery() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await store.optimize()   // ANALYZE: SQLite's statistics give each step its estimated rows
        let plan = try await store.explain(ofType: "City", matching: FormatPredicate(format: "population > 1000000"),
                                           sorts: [Sort("population", ascending: false)], limit: 6)
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.post("records/explain", [
                "resultsLimit": 5,
                "query": ["recordType": "City", "predicate": "population > 1000000", "sortBy": [["fieldName": "population", "ascending": false]]],
            ])
            #expect(answer.status == 200)
            #expect(answer.body["indexesUsed"] == ["City$population$index"])
            #expect(answer.body["engine"] == "sqlite")
            #expect(answer.body["residual"] == .null)
            #expect(answer.body["sql"] == .string(plan.sql))
            #expect(answer.body["arguments"] == .array(plan.arguments.map(JSONValue.string)))
            #expect(answer.body["plan"] == .string(plan.description))
            #expect(answer.body["queryPlanDetails"] == .array(plan.queryPlanDetails.map(JSONValue.string)))
            #expect(answer.body["estimatedRows"] == .array(plan.estimatedRows.map { $0.map { .integer(Int64($0)) } ?? .null }))
            #expect(plan.estimatedRows.count == plan.queryPlanDetails.count)
            #expect(plan.estimatedRows.first.flatMap { $0 } != nil, "an index search has SQLite's estimate")

            // filterBy is read as records/query reads it.
            let filtered = try await server.post("records/explain", RecordsQueryTests.query(
                [["comparator": "BEGINS_WITH", "fieldName": "name", "fieldValue": ["value": "M"]]]))
            #expect(filtered.status == 200)
            #expect(filtered.body["plan"]?.stringValue?.contains("\"name\"") == true)

            let unknown = try await server.post("records/explain", ["query": ["recordType": "Cty"]])
            #expect(unknown.status == 400)
            #expect(unknown.errorCode == "BAD_REQUEST")
            #expect(unknown.body["reason"] == "Did not find record type 'Cty'; did you mean 'City'?")
            let noQuery = try await server.post("records/explain", ["resultsLimit": 5])
            #expect(noQuery.status == 400)
            #expect(noQuery.body["reason"] == "query is missing (an object)")
            let badLimit = try await server.post("records/explain", ["resultsLimit": 500, "query": ["recordType": "City"]])
            #expect(badLimit.body["reason"] == "resultsLimit is a number from 1 to 200")
        }
    }

    @Test func checkAnswersTheCanonicalFormOrTheErrorWithItsPosition() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let valid = try await server.post("predicates/check", ["predicate": "name beginswith[c] 'pa' and population > %d", "arguments": [100_000]])
            #expect(valid.status == 200)
            #expect(valid.body == ["valid": true, "rules": "cloudkit", "canonical": #"name BEGINSWITH[c] "pa" AND population > 100000"#])

            let syntax = try await server.post("predicates/check", ["predicate": "name == "])
            #expect(syntax.status == 200)
            #expect(syntax.body == ["valid": false, "rules": "cloudkit", "error": [
                "kind": "syntax", "message": "expected an expression after '==', found the end of the input at offset 8",
                "expected": "an expression after '=='", "found": "the end of the input",
                "offset": 8, "utf16Offset": 8, "line": 1, "column": 9,
            ]])

            // Offsets in characters and in UTF-16 code units (JavaScript's), line and column on the second line.
            let multiline = try await server.post("predicates/check", ["predicate": "name == \"🇫🇷\"\n AND AND x == 1"])
            #expect(multiline.body["error"]?["offset"] == 17)
            #expect(multiline.body["error"]?["utf16Offset"] == 20)
            #expect(multiline.body["error"]?["line"] == 2)
            #expect(multiline.body["error"]?["column"] == 6)
            #expect(multiline.body["error"]?["found"] == "'AND'")

            let rule = try await server.post("predicates/check", ["predicate": "a == 1 OR b == 2"])
            #expect(rule.body == ["valid": false, "rules": "cloudkit", "error": [
                "kind": "rule", "message": "OR is not supported in CloudKit queries: a == 1 OR b == 2", "fragment": "a == 1 OR b == 2",
            ]])
            let full = try await server.post("predicates/check", ["predicate": "a == 1 OR b == 2", "rules": "full"])
            #expect(full.body == ["valid": true, "rules": "full", "canonical": "a == 1 OR b == 2"])

            let argument = try await server.post("predicates/check", ["predicate": "a == %@"])
            #expect(argument.body["valid"] == false)
            #expect(argument.body["error"]?["kind"] == "argument")
            #expect(argument.body["error"]?["argument"] == 1)

            let noPredicate = try await server.post("predicates/check", ["rules": "full"])
            #expect(noPredicate.status == 400)
            #expect(noPredicate.body["reason"] == "predicate is missing (an NSPredicate format string)")
            let badRules = try await server.post("predicates/check", ["predicate": "a == 1", "rules": "sql"])
            #expect(badRules.status == 400)
            #expect(badRules.body["reason"] == #"rules is "cloudkit", "full" or "coredata""#)
        }
    }

    @Test func withARecordTypeTheCheckFindsUnknownFieldsTypeMismatchesAndMissingIndexes() async throws {
        let store = try await RecordsQueryTests.servedStore()
        // A type whose population has no sortable index: a range of it fails in production.
        try await store.define(RecordTypeSchema(name: "Town", fields: [
            FieldSchema(name: "name", type: .string), FieldSchema(name: "population", type: .int64, isSortable: false),
        ]))
        try await ServerHarness.withServer(store: store) { server in
            let unknown = try await server.post("predicates/check", ["predicate": "populaton > 5", "recordType": "City"])
            #expect(unknown.status == 200)
            #expect(unknown.body == ["valid": false, "rules": "cloudkit", "error": [
                "kind": "field", "message": "Field 'populaton' does not exist in record type 'City'; did you mean 'population'?",
                "field": "populaton", "suggestions": ["population"],
            ]])
            let mismatch = try await server.post("predicates/check", ["predicate": #"name BEGINSWITH "P" AND population == "abc""#, "recordType": "City"])
            #expect(mismatch.body == ["valid": false, "rules": "cloudkit", "error": [
                "kind": "type", "message": #"population is INT64 and "abc" is a string: the comparison can match no record"#, "field": "population",
            ]])
            let listMember = try await server.post("predicates/check", ["predicate": "tags CONTAINS 5", "recordType": "City"])
            #expect(listMember.body["error"]?["message"] == "tags is STRING_LIST and 5 is an integer: the comparison can match no record")
            let inList = try await server.post("predicates/check", ["predicate": #"countrycode IN {"FR", 1}"#, "recordType": "City"])
            #expect(inList.body["error"]?["field"] == "countrycode")
            let fine = try await server.post("predicates/check", ["predicate": #""river" IN tags AND population > 1.5 AND name != nil"#, "recordType": "City"])
            #expect(fine.body == ["valid": true, "rules": "cloudkit", "canonical": #""river" IN tags AND population > 1.5 AND name != nil"#])

            let index = try await server.post("predicates/check", ["predicate": "population > 5", "recordType": "Town"])
            #expect(index.body["error"]?["kind"] == "index")
            #expect(index.body["error"]?["field"] == "population")
            #expect(index.body["error"]?["message"] == .string(RecordStoreError.notSortable(field: "population", recordType: "Town").description))
            // Development queries need no index (development has a schema of its own).
            try await server.developmentStore().define(RecordTypeSchema(name: "Town", fields: [
                FieldSchema(name: "name", type: .string), FieldSchema(name: "population", type: .int64, isSortable: false),
            ]))
            let development = try await server.post("predicates/check", ["predicate": "population > 5", "recordType": "Town"], environment: "development")
            #expect(development.body["valid"] == true)

            let type = try await server.post("predicates/check", ["predicate": "a == 1", "recordType": "Cty"])
            #expect(type.body == ["valid": false, "rules": "cloudkit", "error": [
                "kind": "recordType", "message": "Did not find record type 'Cty'; did you mean 'City'?", "suggestions": ["City"],
            ]])
            // A syntax error comes first; without a record type, fields are not checked.
            #expect(try await server.post("predicates/check", ["predicate": "populaton >", "recordType": "City"]).body["error"]?["kind"] == "syntax")
            #expect(try await server.post("predicates/check", ["predicate": "populaton > 5"]).body["valid"] == true)
        }
    }
}

extension ConsoleRoutesTests {
    @Test func schemaListsEachTypesRelationships() async throws {
        let store = try await ConsoleRelationshipsTests.staff()
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.send("GET", ServerHarness.path("schema"))
            #expect(answer.status == 200)
            let types = answer.body["recordTypes"]?.arrayValue ?? []
            #expect(types.map { $0["recordType"] } == ["Department", "Employee", "Project"])
            #expect(types.map { $0["relationships"] } == [
                [["name": "employees", "destination": "Employee", "kind": "toMany", "inverse": "department", "deletionRule": "nullify"]],
                [["name": "department", "destination": "Department", "kind": "toOne", "deletionRule": "nullify"]],
                [["name": "members", "destination": "Employee", "kind": "referenceList", "deletionRule": "nullify"]],
            ])
            // A to-one and a reference list are stored in fields of their names; a boolean is INT64 on the wire.
            #expect(types[1]["fields"]?.arrayValue?.map { [$0["fieldName"], $0["type"], $0["storeType"]] } == [
                ["name", "STRING", "string"], ["salary", "INT64", "int64"], ["active", "INT64", "bool"], ["department", "REFERENCE", "reference"],
            ])
            #expect(types[2]["fields"]?.arrayValue?.map { $0["type"] } == ["STRING", "REFERENCE_LIST"])
        }
        // A type without relationships has no `relationships` (as before them).
        let cities = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: cities) { server in
            let answer = try await server.send("GET", ServerHarness.path("schema"))
            #expect(answer.body["recordTypes"]?.arrayValue?.first?["relationships"] == nil)
        }
    }

    /// `records/count` counts what `records/query` pages through (the console's counts and totals).
    @Test func countAnswersHowManyRecordsAQuerySelects() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let all = try await server.post("records/count", ["query": ["recordType": "City"]])
            #expect(all.status == 200)
            #expect(all.body == ["count": 12])
            let big = try await server.post("records/count", ["query": ["recordType": "City", "predicate": "population > 1000000"], "resultsLimit": 5])
            #expect(big.body == ["count": .integer(Int64(try await store.count(ofType: "City", matching: FormatPredicate(format: "population > 1000000"))))])
            let filtered = try await server.post("records/count", RecordsQueryTests.query([["comparator": "EQUALS", "fieldName": "countrycode", "fieldValue": ["value": "FR"]]]))
            #expect(filtered.body == ["count": 6])
            let unknown = try await server.post("records/count", ["query": ["recordType": "Cty"]])
            #expect(unknown.status == 400)
            #expect(unknown.body["reason"] == "Did not find record type 'Cty'; did you mean 'City'?")
            let shared = try await server.post("records/count", ["query": ["recordType": "City"]], database: "shared")
            #expect(shared.status == 400)
        }
    }

    /// A field a Core Data model declares Boolean travels as INT64 (CloudKit has no boolean): 0
    /// and 1 are saved as false and true, any other integer refused. The console's true/false
    /// menu writes them so.
    @Test func aBooleanFieldTakesCloudKitsZeroAndOne() async throws {
        let store = try await ConsoleRelationshipsTests.staff()
        try await ServerHarness.withServer(store: store) { server in
            let saved = try await server.post("records/modify", ["operations": [["operationType": "forceUpdate", "record": [
                "recordName": "bob", "recordType": "Employee", "fields": ["active": ["value": 1, "type": "INT64"]]]]]])
            #expect(saved.status == 200)
            #expect(saved.records.first?["fields"]?["active"] == ["value": 1, "type": "INT64"])
            let refused = try await server.post("records/modify", ["operations": [["operationType": "forceUpdate", "record": [
                "recordName": "bob", "recordType": "Employee", "fields": ["active": ["value": 2, "type": "INT64"]]]]]])
            #expect(refused.records.first?["serverErrorCode"] == "BAD_REQUEST")
        }
        #expect(try await store.record(for: RecordID(recordName: "bob"))?.fields["active"] == .bool(true))
    }

    /// The check and records/query agree, through relationships too: the check is the store's
    /// own (`Store.check`), which accepts what running the query accepts.
    @Test(arguments: [TestEngine.memory, .sqlite])
    func theCheckAcceptsWhatRecordsQueryAnswers(engine: TestEngine) async throws {
        let store = try await ConsoleRelationshipsTests.staff(engine)
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, predicateRules: .full)
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let cases: [(recordType: String, predicate: String, valid: Bool)] = [
                ("Department", "employees.@count > 1", true),
                ("Department", "ANY employees.salary > 100000", true),
                ("Department", "SUBQUERY(employees, $e, $e.active == 1).@count > 0", true),
                ("Employee", "department.name == 'Marketing'", true),
                ("Project", "ANY members.name == 'Ada'", true),
                ("Department", "employees.salaryy > 1", false),
                ("Employee", "department.nmae == 'x'", false),
                ("Department", "staff.@count > 1", false),
                ("Employee", "salary.name == 'x'", false),
            ]
            for (recordType, predicate, valid) in cases {
                let check = try await server.post("predicates/check", ["predicate": .string(predicate), "recordType": .string(recordType)])
                let query = try await server.post("records/query", ["query": ["recordType": .string(recordType), "predicate": .string(predicate)]])
                #expect(check.body["valid"]?.boolValue == valid, "\(predicate): \(check.body)")
                #expect(query.status == (valid ? 200 : 400), "\(predicate): \(query.body)")
                if !valid {
                    #expect(check.body["error"]?["message"] == query.body["reason"], "\(predicate)")
                }
            }
        }
    }
}

/// The hashes the console's Content-Security-Policy must name, computed here on their own.
private enum ConsoleDocumentHash {
    static var scripts: [String] { hashes(of: "script") }
    static var style: String { hashes(of: "style").first ?? "missing <style>" }

    /// `sha256-<base64>` of the text between each of the page's `<tag>` and its `</tag>`, in order.
    static func hashes(of tag: String) -> [String] {
        let html = ConsoleDocument(tokenRequired: false, rules: .cloudKit).html
        var hashes: [String] = []
        var rest = html.startIndex..<html.endIndex
        while let open = html.range(of: "<\(tag)>", range: rest), let close = html.range(of: "</\(tag)>", range: open.upperBound..<html.endIndex) {
            hashes.append("sha256-" + Data(SHA256.hash(data: Data(html[open.upperBound..<close.lowerBound].utf8))).base64EncodedString())
            rest = close.upperBound..<html.endIndex
        }
        return hashes
    }
}

extension ServerHarness {
    /// Sends a GET and answers the status, the headers (by lower-case name) and the body as text (for pages that are not JSON).
    func fetchText(_ path: String) async throws -> (status: Int, headers: [String: String], body: String) {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        request.httpMethod = "GET"
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return (http?.statusCode ?? 0, headers, String(decoding: data, as: UTF8.self))
    }
}

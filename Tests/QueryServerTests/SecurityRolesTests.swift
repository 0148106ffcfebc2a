import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing
import TestSupport

/// The public database's security roles, checked against an oracle written apart from the
/// server: random grant sets over two record types, three callers of every kind (signed-in
/// users, one holding a custom role; a caller with an API token alone; a server-to-server key),
/// every operation from every caller, and the store afterwards exactly what the allowed
/// operations made of it.
@Suite(.serialized) struct SecurityRolesTests {
    static let types = ["Note", "Tag"]
    static let roles = ["_world", "_icloud", "_creator", "Moderator"]
    static let permissions = ["READ", "CREATE", "WRITE"]

    /// A caller, as the oracle sees it.
    struct Caller: Sendable, CustomStringConvertible {
        /// A signed-in user sends their session's current token (each answer rotates it, and a
        /// replaced token works only for a grace period: a slow run must not outlive it).
        enum Kind: Sendable { case user(name: String, session: WebAuthTests.SignedInClient), anonymous, key }
        var label: String
        var kind: Kind
        var roles: Set<String> = []
        var userRecordName: String? {
            if case .user(let name, _) = kind { return name }
            return nil
        }
        var description: String { label }
        var isAnonymous: Bool {
            if case .anonymous = kind { return true }
            return false
        }
        var isKey: Bool {
            if case .key = kind { return true }
            return false
        }
    }

    // MARK: The oracle: CloudKit's rules, written from Apple's documentation, apart from the server.

    /// Whether a caller has a permission on a record of a type made by `creator` (nil for a
    /// record being created), under `grants` (role -> permissions; nil: the type declares none).
    static func oracleAllows(_ permission: String, grants: [String: Set<String>]?, caller: Caller, creator: String?) -> Bool {
        if case .key = caller.kind { return true }
        let effective = grants ?? ["_world": ["READ"], "_icloud": ["CREATE"], "_creator": ["WRITE"]]
        for (role, granted) in effective where granted.contains(permission) {
            switch role {
            case "_world": return true
            case "_icloud": if caller.userRecordName != nil { return true }
            case "_creator":
                if let name = caller.userRecordName, permission == "CREATE" || creator == name { return true }
            default: if caller.roles.contains(role) { return true }
            }
        }
        return false
    }

    /// What a query of a type answers a caller: nil for ACCESS_DENIED, or the record names.
    static func oracleQuery(_ type: String, grants: [String: Set<String>]?, caller: Caller, records: [String: (type: String, creator: String)]) -> [String]? {
        if case .key = caller.kind { return records.filter { $0.value.type == type }.keys.sorted() }
        let effective = grants ?? ["_world": ["READ"], "_icloud": ["CREATE"], "_creator": ["WRITE"]]
        let reading = effective.filter { $0.value.contains("READ") }.keys
        let broad = reading.contains("_world") || (reading.contains("_icloud") && caller.userRecordName != nil)
            || reading.contains { caller.roles.contains($0) }
        let own = reading.contains("_creator") && caller.userRecordName != nil
        guard broad || own else { return nil }
        return records.filter { $0.value.type == type && (broad || $0.value.creator == caller.userRecordName) }.keys.sorted()
    }

    // MARK: Requests.

    /// Sends a request as a caller to the development database (API token, web auth token, or a key's signature).
    static func send(
        _ caller: Caller, _ operation: String, _ body: JSONValue, server: ServerHarness, key: TestKey, environment: String = "development"
    ) async throws -> ServerHarness.Answer {
        let text = String(decoding: body.jsonBytes(), as: UTF8.self)
        let path = ServerHarness.path(operation, environment: environment, database: "public")
        switch caller.kind {
        case .user(_, let session):
            return try await session.post(operation, body, database: "public", environment: environment)
        case .anonymous:
            return try await server.send("POST", path + "?ckAPIToken=\(WebAuthTests.apiToken)", body: text)
        case .key:
            return try await server.send("POST", path, body: text, headers: try AuthenticationTests.signedHeaders(key, body: text, path: path))
        }
    }

    /// A server with the web app's API token and one key.
    static func configuration(_ key: TestKey) throws -> CloudKitServer.Configuration {
        var configuration = try AuthenticationTests.configuration(key)
        configuration.credentials.apiTokens = [WebAuthTests.apiToken]
        return configuration
    }

    /// A random grant set for a type: nil (no grants: the defaults) a quarter of the time.
    static func randomGrants(_ random: inout SplitMix64) -> [String: Set<String>]? {
        if random.chance(25) { return nil }
        var grants: [String: Set<String>] = [:]
        for role in roles {
            let granted = Set(permissions.filter { _ in random.chance(40) })
            if !granted.isEmpty { grants[role] = granted }
        }
        return grants.isEmpty ? nil : grants
    }

    static func ckdb(_ grants: [String: [String: Set<String>]?]) -> String {
        var text = "DEFINE SCHEMA\n    CREATE ROLE Moderator;\n"
        for type in types {
            var items = ["title STRING QUERYABLE SORTABLE"]
            for role in roles {
                guard let granted = grants[type]??[role] else { continue }
                let quoted = role.hasPrefix("_") ? "\"\(role)\"" : role
                items.append("GRANT \(permissions.filter(granted.contains).joined(separator: ", ")) TO \(quoted)")
            }
            text += "    RECORD TYPE \(type) (\(items.joined(separator: ", ")));\n"
        }
        return text
    }

    static func modify(_ type: String, _ operationType: String, _ recordName: String, title: String? = nil) -> JSONValue {
        var record: [String: JSONValue] = ["recordName": .string(recordName), "recordType": .string(type)]
        if let title { record["fields"] = ["title": ["value": .string(title)]] }
        return ["operations": [["operationType": .string(operationType), "record": .object(record)]]]
    }

    @Test("Every operation from every caller does what random grant sets allow, and refusals change nothing", arguments: [TestEngine.sqlite, TestEngine.postgres])
    func oracle(engine: TestEngine) async throws {
        let key = TestKey()
        var random = SplitMix64(seed: 4_711)
        for trial in 0..<5 {
            var grants: [String: [String: Set<String>]?] = [:]
            for type in Self.types { grants[type] = Self.randomGrants(&random) }
            let ckdb = Self.ckdb(grants)
            let store = try engine.makeStore()
            try await Self.check(ckdb: ckdb, grants: grants, store: store, key: key, trial: trial)
        }
    }

    /// One trial: the grants applied, users and records made, every operation sent and checked.
    static func check(ckdb: String, grants: [String: [String: Set<String>]?], store: Store, key: TestKey, trial: Int) async throws {
        try await ServerHarness.withServer(store: store, configuration: try configuration(key)) { server in
            let development = try await server.developmentStore()
            try await ServerHarness.define(ckdb, in: development)
            var callers: [Caller] = []
            for (label, roles) in [("ada", ["Moderator"]), ("bob", [])] {
                let user = try await UserDirectory(store: store).add(ServerUser(givenName: label, emailAddress: "\(label)@example.org", isDiscoverable: false))
                let token = try await WebAuthSessions(store: store).open(userRecordName: user.userRecordName, container: WebAuthTests.container)
                for role in roles { try await development.assignRole(role, to: user.userRecordName) }
                callers.append(Caller(label: label, kind: .user(name: user.userRecordName, session: WebAuthTests.SignedInClient(server, token: token)), roles: Set(roles)))
            }
            callers.append(Caller(label: "anonymous", kind: .anonymous))
            callers.append(Caller(label: "key", kind: .key))
            let ada = try #require(callers[0].userRecordName), bob = try #require(callers[1].userRecordName)

            // The records: each type has one of Ada's and one of Bob's, saved past the grants, in
            // the development public database's zone.
            let zone = try Self.zone()
            try await development.createZone(zone)
            var model: [String: (type: String, creator: String)] = [:]
            var titles: [String: String] = [:]
            for type in Self.types {
                for (name, author) in [("\(type)-ada", ada), ("\(type)-bob", bob)] {
                    let record = Record(recordType: type, recordID: RecordID(recordName: name, zoneID: zone), fields: ["title": .string("first")])
                    #expect(try await development.modify(saving: [record], deleting: [], author: author).isSuccess)
                    model[name] = (type, author)
                    titles[name] = "first"
                }
            }
            let context = "trial \(trial):\n\(ckdb)"

            for caller in callers {
                for type in Self.types {
                    let typeGrants = grants[type] ?? nil
                    // A query of the whole type.
                    let query = try await send(caller, "records/query", ["query": ["recordType": .string(type), "sortBy": [["systemFieldName": "recordName"]]]], server: server, key: key)
                    if let expected = oracleQuery(type, grants: typeGrants, caller: caller, records: model) {
                        #expect(query.status == 200 && query.recordNames == expected, "\(caller) queries \(type): \(query.status) \(query.body)\n\(context)")
                    } else {
                        #expect(query.status == 403 && query.body["serverErrorCode"] == "ACCESS_DENIED", "\(caller) queries \(type): \(query.status)\n\(context)")
                    }
                    // A lookup of every record of the type.
                    let names = model.filter { $0.value.type == type }.keys.sorted()
                    let lookup = try await send(caller, "records/lookup", ["records": .array(names.map { ["recordName": .string($0)] })], server: server, key: key)
                    for (index, name) in names.enumerated() {
                        let allowed = oracleAllows("READ", grants: typeGrants, caller: caller, creator: model[name]?.creator)
                        let code = lookup.records.count > index ? lookup.records[index]["serverErrorCode"]?.stringValue : "missing"
                        let entry = code
                        #expect((code == nil) == allowed && (allowed || code == "ACCESS_DENIED"),
                                "\(caller) looks up \(name): \(String(describing: entry))\n\(context)")
                    }
                    // A create.
                    let created = "\(type)-new-\(caller.label)"
                    let create = try await send(caller, "records/modify", modify(type, "create", created, title: "new"), server: server, key: key)
                    try expectWrite(create, allowed: oracleAllows("CREATE", grants: typeGrants, caller: caller, creator: nil), caller: caller, what: "creates \(created)", context: context)
                    if create.records.first?["serverErrorCode"] == nil, create.status == 200 {
                        model[created] = (type, caller.userRecordName ?? UserRecordName.owner(of: .private(user: PrivateDatabaseUser.name(keyID: AuthenticationTests.keyID))))
                        titles[created] = "new"
                    }
                    // An update of every record of the type that was there before.
                    for name in names {
                        let update = try await send(caller, "records/modify", modify(type, "forceUpdate", name, title: caller.label), server: server, key: key)
                        let allowed = oracleAllows("WRITE", grants: typeGrants, caller: caller, creator: model[name]?.creator)
                        try expectWrite(update, allowed: allowed, caller: caller, what: "updates \(name)", context: context)
                        if allowed, !caller.isAnonymous { titles[name] = caller.label }
                    }
                }
            }
            try await expectStored(titles, in: development, context: context)
            // Deletions last: every caller but the key (which may delete everything) tries every record, in order.
            for caller in callers where !caller.isKey {
                for name in model.keys.sorted() {
                    guard let stored = model[name] else { continue }
                    let delete = try await send(caller, "records/modify", modify(stored.type, "forceDelete", name), server: server, key: key)
                    let allowed = oracleAllows("WRITE", grants: grants[stored.type] ?? nil, caller: caller, creator: stored.creator)
                    try expectWrite(delete, allowed: allowed, caller: caller, what: "deletes \(name)", context: context)
                    if allowed, !caller.isAnonymous {
                        model[name] = nil
                        titles[name] = nil
                    }
                }
            }
            try await expectStored(titles, in: development, context: context)
        }
    }

    /// The development public database's default zone, as the store names it.
    static func zone() throws -> ZoneID {
        try Namespace(environment: .development, database: .public).storedZone(ZoneID.default.zoneName)
    }

    /// The store holds exactly what the allowed operations made: these records, with these titles.
    static func expectStored(_ titles: [String: String], in store: Store, context: String) async throws {
        var stored: [String: String] = [:]
        for type in Self.types {
            for record in try await store.records(ofType: type, matching: .truePredicate, zone: try Self.zone()) {
                stored[record.recordID.recordName] = record["title"]?.stringValue
            }
        }
        #expect(stored == titles, "\(context)")
    }

    /// A modify's answer: allowed, the record saved or deleted; refused, ACCESS_DENIED for a user
    /// and AUTHENTICATION_REQUIRED (421) for a caller who is not signed in.
    static func expectWrite(_ answer: ServerHarness.Answer, allowed: Bool, caller: Caller, what: String, context: String) throws {
        if case .anonymous = caller.kind {
            #expect(answer.status == 421 && answer.body["serverErrorCode"] == "AUTHENTICATION_REQUIRED", "\(caller) \(what): \(answer.status)\n\(context)")
            return
        }
        #expect(answer.status == 200, "\(caller) \(what): \(answer.status) \(answer.body)\n\(context)")
        let code = answer.records.first?["serverErrorCode"]?.stringValue
        if allowed {
            #expect(code == nil, "\(caller) \(what): \(answer.body)\n\(context)")
        } else {
            #expect(code == "ACCESS_DENIED", "\(caller) \(what): \(answer.body)\n\(context)")
        }
    }

    static let moderatedNotes = """
        DEFINE SCHEMA
            CREATE ROLE Moderator;
            RECORD TYPE Note (title STRING QUERYABLE SORTABLE, GRANT READ TO "_world", GRANT CREATE, WRITE TO Moderator);
        """

    static let signedInNotes = """
        DEFINE SCHEMA
            RECORD TYPE Note (title STRING QUERYABLE SORTABLE, GRANT READ, CREATE TO "_icloud");
        """

    /// What a role assigned, taken away, and new grants do to the next request on `server`, when
    /// they are made through `operator` (another handle on the same store).
    static func checkChangesHoldAtOnce(operator store: Store, users: Store, server: ServerHarness, key: TestKey) async throws {
        let bob = try await UserDirectory(store: users).add(ServerUser(givenName: "Bob", emailAddress: "bob@example.org", isDiscoverable: false))
        let client = WebAuthTests.SignedInClient(server, token: try await WebAuthSessions(store: users).open(userRecordName: bob.userRecordName, container: WebAuthTests.container))
        func create(_ name: String) async throws -> String? {
            let answer = try await client.post("records/modify", modify("Note", "create", name, title: "Bob's"), database: "public", environment: "production")
            #expect(answer.status == 200, "\(answer.body)")
            return answer.records.first?["serverErrorCode"]?.stringValue
        }
        #expect(try await create("n1") == "ACCESS_DENIED")
        try await store.assignRole("Moderator", to: bob.userRecordName)
        #expect(try await create("n2") == nil)
        try await store.removeRole("Moderator", from: bob.userRecordName)
        #expect(try await create("n3") == "ACCESS_DENIED")
        let anonymous = Caller(label: "anonymous", kind: .anonymous)
        let read = try await send(anonymous, "records/query", ["query": ["recordType": "Note"]], server: server, key: key, environment: "production")
        #expect(read.recordNames == ["n2"])

        // New grants: signed-in users read and create, the world reads nothing.
        try await ServerHarness.define(signedInNotes, in: store)
        #expect(try await create("n4") == nil)
        let refused = try await send(anonymous, "records/query", ["query": ["recordType": "Note"]], server: server, key: key, environment: "production")
        #expect(refused.status == 403)
        #expect(refused.body["serverErrorCode"] == "ACCESS_DENIED")
        #expect(refused.body["reason"]?.stringValue == "record type 'Note' grants READ to '_icloud', not to a caller who is not signed in")
        let explained = try await send(anonymous, "records/explain", ["query": ["recordType": "Note"]], server: server, key: key, environment: "production")
        #expect(explained.status == 403)
        #expect(explained.body["serverErrorCode"] == "ACCESS_DENIED")
    }

    @Test("SQLite: a role assigned or taken away, and grants applied, hold for the next request")
    func changesHoldAtOnceOnSQLite() async throws {
        let key = TestKey()
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define(Self.moderatedNotes, in: store)
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(key)) { server in
            try await Self.checkChangesHoldAtOnce(operator: store, users: store, server: server, key: key)
        }
    }

    @Test("PostgreSQL: a role assigned through one handle on the store holds at once on a server over another",
          .enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
    func changesHoldAtOnceAcrossServers() async throws {
        let key = TestKey()
        let url = try PostgresTestServer.freshStoreURL()
        let first = try await Store.open(url: url)
        let second = try await Store.open(url: url)
        try await ServerHarness.define(Self.moderatedNotes, in: first)
        try await ServerHarness.withServer(store: first, configuration: try Self.configuration(key)) { _ in
            try await ServerHarness.withServer(store: second, configuration: try Self.configuration(key)) { other in
                try await Self.checkChangesHoldAtOnce(operator: first, users: first, server: other, key: key)
            }
        }
    }

    @Test("A listener to subscriptions/events hears only of the records it may read")
    func notificationsFollowTheGrants() async throws {
        let key = TestKey()
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define("""
            DEFINE SCHEMA
                RECORD TYPE Note (title STRING QUERYABLE SORTABLE, GRANT READ, WRITE TO "_creator", GRANT CREATE TO "_icloud");
            """, in: store)
        let (_, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (_, bobToken) = try await WebAuthTests.signIn(store, email: "bob@example.org", givenName: "Bob")
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(key)) { server in
            let ada = WebAuthTests.SignedInClient(server, token: adaToken)
            let bob = WebAuthTests.SignedInClient(server, token: bobToken)
            let subscription: JSONValue = ["operations": [["operationType": "create", "subscription": [
                "subscriptionID": "notes", "subscriptionType": "query", "query": ["recordType": "Note"], "firesOn": ["create"]]]]]
            #expect(try await ada.post("subscriptions/modify", subscription, database: "public", environment: "production").status == 200)
            let path = ServerHarness.path("subscriptions/events") + "?ckAPIToken=\(WebAuthTests.apiToken)&ckWebAuthToken=\(await ada.token)"
            let events = try EventStreamClient(port: server.port, path: path)
            defer { events.close() }
            try await events.waitForHead()
            #expect(events.statusLine == "HTTP/1.1 200 OK")
            // Bob's note first, then Ada's: Ada hears of hers alone.
            _ = try await bob.post("records/modify", Self.modify("Note", "create", "bobs", title: "Bob's"), database: "public", environment: "production")
            _ = try await ada.post("records/modify", Self.modify("Note", "create", "adas", title: "Ada's"), database: "public", environment: "production")
            let heard = try await events.next(1)
            #expect(heard.map { $0.json?["recordName"]?.stringValue } == ["adas"])
        }
    }
}

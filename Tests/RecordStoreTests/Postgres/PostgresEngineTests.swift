import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite
import RecordStorePostgres
import Testing

/// What only the PostgreSQL engine has: opening by URL and its errors, writers racing through a
/// connection pool, several processes on one database, the server dropping connections, and the
/// limits of its indexes. (Every engine-parameterized suite runs on PostgreSQL too.)
@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
struct PostgresEngineTests {
    static func item(_ name: String, _ fields: [String: Value]) -> Record {
        Record(recordType: "Item", recordID: RecordID(recordName: name), fields: fields)
    }

    /// How a save ended.
    static func outcome(_ body: () async throws(RecordStoreError) -> [Record]) async -> Result<[Record], RecordStoreError> {
        do throws(RecordStoreError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// The server's URL with its password, port or database replaced.
    static func serverURL(replacing component: (inout URLComponents) -> Void) throws -> String {
        // The `postgres://` scheme is registered by the test support, which a test run alone
        // may not have reached yet.
        TestEngine.registerEngines()
        let url = try #require(PostgresTestServer.url)
        var components = try #require(URLComponents(string: url))
        component(&components)
        return try #require(components.string)
    }

    // MARK: Opening

    @Test func opensByURLAndAnswersOnlyAsync() async throws {
        let store = try await PostgresTestServer.makeAsyncStore()
        #expect(store.engineName == "postgres")
        #expect(!store.answersSynchronously)
        #expect(throws: RecordStoreError.synchronousAccessUnavailable(engine: "postgres")) { try store.zones() }
        let saved = try await store.save([Self.item("a", ["rank": 1])])
        #expect(try await store.record(for: RecordID(recordName: "a")) == saved[0])
    }

    @Test func anUnreachableServerIsATypedErrorWithinTheTimeout() async throws {
        let url = try Self.serverURL { $0.port = 1; $0.query = "connect_timeout=3" }
        await #expect {
            _ = try await Store.open(url: url)
        } throws: { error in
            guard case RecordStoreError.serverUnavailable(let server, _) = error else { return false }
            return server.hasSuffix(":1/query_test") || server.contains(":1/")
        }
    }

    @Test func aWrongPasswordIsATypedErrorNamingTheCause() async throws {
        let url = try Self.serverURL { $0.password = "not-the-password" }
        await #expect {
            _ = try await Store.open(url: url)
        } throws: { error in
            guard case RecordStoreError.serverUnavailable(_, let reason) = error else { return false }
            return reason.contains("password") && !"\(error)".contains("not-the-password")
        }
    }

    @Test func aMissingDatabaseIsATypedError() async throws {
        let url = try Self.serverURL { $0.path = "/no_such_database_here" }
        await #expect {
            _ = try await Store.open(url: url)
        } throws: { error in
            guard case RecordStoreError.serverUnavailable(let server, let reason) = error else { return false }
            return server.hasSuffix("/no_such_database_here") && reason.contains("does not exist")
        }
    }

    @Test(arguments: [
        ("postgres://localhost/db", "names no user"),
        ("postgres://u@localhost/", "names no database"),
        ("postgres://u@localhost/db?sslmode=sometimes", "sslmode 'sometimes'"),
        ("postgres://u@localhost/db?color=blue", "unknown parameter 'color'"),
        ("postgres://u@localhost/db?connect_timeout=-1", "connect_timeout"),
        ("postgres://u@localhost/db?replica=standby:99999", "the replica parameter 'standby:99999'"),
        ("postgres://u@localhost/db?replica=", "the replica parameter ''"),
        ("postgres://u@localhost/db?replica_wait=soon", "replica_wait"),
        ("postgres://u@db1:5432,db2:x/db", "the host 'db2:x'"),
        ("postgres://u@db1,,db2/db", "the host ''"),
        ("postgres://u@db1,db2/db?target_session_attrs=standby", "target_session_attrs 'standby'"),
    ])
    func malformedURLsAreClearErrors(url: String, says: String) async throws {
        await #expect {
            _ = try await Store.open(url: url)
        } throws: { error in
            guard case RecordStoreError.invalidStoreLocation(_, let reason) = error else { return false }
            return reason.contains(says)
        }
    }

    @Test func aPasswordNeverAppearsInAnError() async throws {
        await #expect {
            _ = try await Store.open(url: "postgres://user:secret-word@localhost/db?sslmode=never")
        } throws: { error in
            "\(error)".contains("***") && !"\(error)".contains("secret-word")
        }
    }

    // MARK: Writers

    @Test func twoWritersRacingOnOneRecordGetExactlyOneConflict() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let first = try await Store.open(url: url)
        let second = try await Store.open(url: url)
        for round in 0..<10 {
            let name = "race\(round)"
            let stored = try await first.save([Self.item(name, ["rank": 0])])[0]
            var fromFirst = stored
            fromFirst["rank"] = 1
            var fromSecond = stored
            fromSecond["rank"] = 2
            async let a = Self.outcome { () async throws(RecordStoreError) in try await first.save([fromFirst]) }
            async let b = Self.outcome { () async throws(RecordStoreError) in try await second.save([fromSecond]) }
            let outcomes = await [a, b]
            let winners = outcomes.compactMap { try? $0.get().first }
            #expect(winners.count == 1, "round \(round)")
            for outcome in outcomes {
                if case .failure(let error) = outcome {
                    guard case .conflict(let id, _, _) = error else {
                        Issue.record("expected a conflict, got \(error)")
                        continue
                    }
                    #expect(id.recordName == name)
                }
            }
            let final = try #require(try await first.record(for: RecordID(recordName: name)))
            #expect(final["rank"] == winners.first?["rank"])
            #expect(final.recordChangeTag == winners.first?.recordChangeTag)
        }
    }

    @Test func sixteenWritersIncrementingOneCounterLoseNoUpdate() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let store = try await Store.open(url: url)
        _ = try await store.save([Self.item("counter", ["count": 0])])
        let writers = 16
        let incrementsEach = 5
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<writers {
                group.addTask {
                    var conflicts = 0
                    var done = 0
                    while done < incrementsEach {
                        guard var record = try await store.record(for: RecordID(recordName: "counter")),
                              case .int(let count)? = record["count"] else { throw RecordStoreError.storage("no count") }
                        record["count"] = .int(count + 1)
                        switch await Self.outcome({ () async throws(RecordStoreError) in try await store.save([record]) }) {
                        case .success: done += 1
                        case .failure(.conflict): conflicts += 1
                        case .failure(let error): throw error
                        }
                    }
                    return conflicts
                }
            }
            for try await _ in group {}
        }
        let final = try #require(try await store.record(for: RecordID(recordName: "counter")))
        #expect(final["count"] == .int(Int64(writers * incrementsEach)))
    }

    @Test func aBatchWithAStaleRecordWritesNothing() async throws {
        let store = try await PostgresTestServer.makeAsyncStore()
        let stored = try await store.save([Self.item("kept", ["rank": 1])])[0]
        var stale = stored
        stale.recordChangeTag = "stale"
        stale["rank"] = 9
        await #expect(throws: RecordStoreError.self) {
            try await store.save([Self.item("new", ["rank": 2]), stale])
        }
        #expect(try await store.record(for: RecordID(recordName: "new")) == nil)
        #expect(try await store.record(for: RecordID(recordName: "kept"))?["rank"] == .int(1))
    }

    @Test func storesMigratingOneSchemaAtOnceKeepEveryField() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        var stores: [Store] = []
        for _ in 0..<6 { stores.append(try await Store.open(url: url)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    for step in 0..<3 {
                        _ = try await store.save([Self.item("s\(index)-\(step)", ["field\(index)_\(step)": .int(Int64(step)), "shared": "x"])])
                    }
                }
            }
            try await group.waitForAll()
        }
        let schema = try #require(try await stores[0].schema(for: "Item"))
        var expected: Set<String> = ["shared"]
        for index in 0..<6 {
            for step in 0..<3 { expected.insert("field\(index)_\(step)") }
        }
        #expect(Set(schema.fields.map(\.name)) == expected)
        #expect(try await stores[0].count(ofType: "Item", matching: .truePredicate) == 18)
    }

    /// Fields with every type and the characters the `COPY` text format reserves.
    static func copyFields(_ index: Int) -> [String: Value] {
        let texts = ["tab\there", "line\nbreak\r\n", "back\\slash \\N", "quote \" and ' and {braces,}", "Zoë 東京 🏔", "", " "]
        let doubles: [Double] = [0.1, -0.0, 1e-300, .greatestFiniteMagnitude, .infinity, -.infinity, 3.0]
        return [
            "title": .string(texts[index % texts.count] + " \(index)"),
            "rank": .int(index % 2 == 0 ? Int64(index) : .min + Int64(index)),
            "score": .double(doubles[index % doubles.count]),
            "flag": .bool(index % 3 == 0),
            "stamp": .date(Date(timeIntervalSinceReferenceDate: 123_456.789 + Double(index))),
            "data": .bytes(Data([0, 9, 10, 92, 255, UInt8(index % 256)])),
            "place": .location(Location(latitude: 48.8566 + Double(index) / 1000, longitude: -2.3522)),
            "tags": .list([.string(texts[(index + 1) % texts.count]), .string("t\(index % 5)")]),
            "flags": .list([.bool(true), .bool(index % 2 == 0)]),
        ]
    }

    @Test func aLargeBatchIsCopiedAndReadsBackExactlyAsASmallOne() async throws {
        let store = try await PostgresTestServer.makeAsyncStore()
        // 250 new records go in with COPY; 5 go in with INSERT.
        let copied = (0..<250).map { Self.item("c\($0)", Self.copyFields($0)) }
        let inserted = (0..<5).map { Self.item("s\($0)", Self.copyFields($0)) }
        _ = try await store.save(copied)
        _ = try await store.save(inserted)
        for (name, index) in [("c0", 0), ("c1", 1), ("c4", 4), ("c5", 5), ("c249", 249), ("s0", 0), ("s4", 4)] {
            let record = try #require(try await store.record(for: RecordID(recordName: name)))
            #expect(record.fields == Self.copyFields(index), "\(name)")
        }
        // Indexes and side tables hold what a query needs: lists, folded forms, full text, location.
        #expect(try await store.count(ofType: "Item", matching: FormatPredicate(format: "ANY tags == 't3'")) == 51)
        #expect(try await store.count(ofType: "Item", matching: FormatPredicate(format: "title BEGINSWITH[cd] 'ZOE'")) == 37)
        #expect(try await store.count(ofType: "Item", matching: FormatPredicate(format: "flag == YES")) == 86)
        #expect(try await store.count(ofType: "Item", matching: FormatPredicate(format: "score == %@", Double.infinity)) == 37)
    }

    // MARK: Several processes

    @Test func aCursorMadeByOneStoreContinuesInAnother() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let first = try await Store.open(url: url)
        _ = try await first.save((0..<25).map { Self.item(String(format: "i%02d", $0), ["rank": .int(Int64($0))]) })
        let query = try RecordQuery(recordType: "Item", predicate: FormatPredicate(format: "rank >= 5"), sorts: [Sort("rank")])
        let page = try await first.records(matching: query, resultsLimit: 10)
        let cursor = try #require(page.cursor)
        let second = try await Store.open(url: url)
        let rest = try await second.records(continuingMatchFrom: cursor, resultsLimit: 100)
        #expect((page.records + rest.records).map(\.recordID.recordName) == (5..<25).map { String(format: "i%02d", $0) })
        #expect(rest.cursor == nil)
    }

    @Test func queriesPlannedAgainstAKeptCatalogSeeAnotherStoresSchemaChanges() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let reader = try await Store.open(url: url)
        let writer = try await Store.open(url: url)
        _ = try await writer.save([Self.item("a", ["rank": 1])])
        let query = try RecordQuery(recordType: "Item", predicate: FormatPredicate(format: "rank >= 0"), sorts: [Sort("rank")])
        // The first query reads the catalog; the second runs as one statement against the kept one.
        #expect(try await reader.records(matching: query).records.map(\.recordID.recordName) == ["a"])
        #expect(try await reader.count(ofType: "Item", matching: FormatPredicate(format: "rank >= 0")) == 1)
        // Another store adds a field: the kept catalog no longer knows every column.
        _ = try await writer.save([Self.item("b", ["rank": 2, "color": "red"])])
        let records = try await reader.records(matching: query).records
        #expect(records.map(\.recordID.recordName) == ["a", "b"])
        #expect(records.last?["color"] == .string("red"))
        #expect(try await reader.count(ofType: "Item", matching: FormatPredicate(format: "color == 'red'")) == 1)
        // Another store deletes a zone the kept plan names: the query says the zone is gone.
        let zone = ZoneID(zoneName: "Temporary")
        try await writer.createZone(zone)
        _ = try await writer.save([Record(recordType: "Item", recordID: RecordID(recordName: "z", zoneID: zone), fields: ["rank": 3])])
        #expect(try await reader.count(ofType: "Item", matching: .truePredicate, zone: zone) == 1)
        try await writer.deleteZone(zone)
        await #expect(throws: RecordStoreError.zoneNotFound(zone)) {
            try await reader.count(ofType: "Item", matching: .truePredicate, zone: zone)
        }
    }

    // MARK: The server

    @Test
    func droppedConnectionsFailTypedAndTheStoreRecovers() async throws {
        let application = "query-drop-\(UUID().uuidString.prefix(8))"
        let url = try PostgresTestServer.freshStoreURL() + "&application_name=" + application
        let store = try await Store.open(url: url)
        let batch = (0..<3000).map { Self.item("b\($0)", ["rank": .int(Int64($0)), "title": .string("batch \($0)")]) }
        // Save a big batch while the server drops the store's connections.
        async let saving = Self.outcome { () async throws(RecordStoreError) in try await store.save(batch) }
        try await Task.sleep(for: .milliseconds(30))
        try await PostgresTestServer.terminateConnections(applicationName: application)
        let outcome = await saving
        if case .failure(let error) = outcome {
            guard case .serverUnavailable = error else {
                Issue.record("an interrupted save failed with \(error), not serverUnavailable")
                return
            }
        }
        // The pool reconnects: within a few tries, calls succeed again.
        var count: Int?
        for _ in 0..<50 {
            count = try await Self.countAfterReconnecting(store)
            if count != nil { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        // All of the batch or none of it: never a part.
        let expected = (try? outcome.get()) == nil ? [0, 3000] : [3000]
        #expect(count.map(expected.contains) == true, "found \(String(describing: count)) records")
        _ = try await store.save([Self.item("after", ["rank": 1])])
        #expect(try await store.record(for: RecordID(recordName: "after")) != nil)
    }

    /// The number of items, 0 when the type is unknown, nil while the server is unavailable.
    static func countAfterReconnecting(_ store: Store) async throws -> Int? {
        do throws(RecordStoreError) {
            return try await store.count(ofType: "Item", matching: .truePredicate)
        } catch .serverUnavailable {
            return nil
        } catch .unknownRecordType {
            return 0
        }
    }

    // MARK: Limits and plans

    @Test func valuesTooLongForAnIndexAreClearErrors() async throws {
        let store = try await PostgresTestServer.makeAsyncStore()
        let megabyte = String(repeating: "0123456789abcdef", count: 65_536)
        await #expect {
            try await store.save([Self.item("long", ["title": .string(megabyte)])])
        } throws: { error in
            guard case RecordStoreError.unsupportedValue(let field, let type, let reason) = error else { return false }
            return field == "title" && type == "Item" && reason.contains("PostgreSQL index")
        }
        await #expect {
            try await store.save([Self.item(megabyte, ["rank": 1])])
        } throws: { error in
            if case RecordStoreError.invalidRecordName = error { return true }
            return false
        }
        await #expect {
            try await store.createZone(ZoneID(zoneName: megabyte))
        } throws: { error in
            if case RecordStoreError.invalidZoneName = error { return true }
            return false
        }
        // A field that is neither queryable nor sortable holds it.
        try await store.define(RecordTypeSchema(name: "Note", fields: [FieldSchema(name: "body", type: .string, isQueryable: false, isSortable: false)]))
        let note = Record(recordType: "Note", recordID: RecordID(recordName: "n"), fields: ["body": .string(megabyte)])
        _ = try await store.save([note])
        #expect(try await store.record(for: note.recordID)?["body"] == .string(megabyte))
        #expect(try await store.count(ofType: "Note", matching: .truePredicate) == 1)
    }

    @Test func aListThatBecomesQueryableGetsItsMembersOrAClearError() async throws {
        let store = try await PostgresTestServer.makeAsyncStore()
        func declare(queryable: Bool) async throws {
            try await store.define(RecordTypeSchema(name: "Tag", fields: [
                FieldSchema(name: "names", type: .list(.string), isQueryable: queryable, isSortable: false),
            ]))
        }
        func tag(_ name: String, _ names: [String]) -> Record {
            Record(recordType: "Tag", recordID: RecordID(recordName: name), fields: ["names": .list(names.map(Value.string))])
        }
        try await declare(queryable: false)
        // More members than one statement binds, and a member too long for an index (fine unindexed).
        let many = (0..<7_000).map { "m\($0)" }
        _ = try await store.save([tag("few", ["x", "Y"]), tag("many", many), tag("long", [String(repeating: "z", count: 3_000)])])
        await #expect(throws: RecordStoreError.unsupportedValue(field: "names", recordType: "Tag", reason:
            "a list member takes 3000 bytes in a PostgreSQL index, which holds at most 2600; store long text in a field that is neither queryable nor sortable")) {
            try await declare(queryable: true)
        }
        #expect(try await store.schema(for: "Tag")?.field(named: "names")?.isQueryable == false)

        try await store.delete([RecordID(recordName: "long")])
        try await declare(queryable: true)
        #expect(try await store.records(ofType: "Tag", matching: FormatPredicate(format: "ANY names == 'm6999'")).map(\.recordID.recordName) == ["many"])
        #expect(try await store.records(ofType: "Tag", matching: FormatPredicate(format: "ANY names ==[c] 'y'")).map(\.recordID.recordName) == ["few"])
        #expect(try await store.count(ofType: "Tag", matching: FormatPredicate(format: "ANY names BEGINSWITH 'm'")) == 1)
        let plan = try await store.explain(ofType: "Tag", matching: FormatPredicate(format: "ANY names == 'm0'"))
        #expect(plan.residual == nil)
    }

    @Test func explainShowsPostgresPlanWithItsIndexes() async throws {
        let store = try await PostgresTestServer.makeAsyncStore()
        _ = try await store.save((0..<2000).map { Self.item("e\($0)", ["rank": .int(Int64($0)), "title": .string("title \($0)")]) })
        try await store.optimize()
        let plan = try await store.explain(ofType: "Item", matching: FormatPredicate(format: "rank == 1234"))
        #expect(plan.engine == "postgres")
        #expect(plan.sql.contains("$1"))
        #expect(plan.residual == nil)
        #expect(plan.indexesUsed == ["Item$rank$index"])
        #expect(plan.queryPlanDetails.contains { $0.contains("Item$rank$index") })
        // Each plan node's estimate is its rows=: one row for a unique rank, after ANALYZE.
        #expect(plan.estimatedRows.count == plan.queryPlanDetails.count)
        let scanLine = try #require(plan.queryPlanDetails.firstIndex { $0.contains("Index Scan") })
        #expect(plan.estimatedRows[scanLine] == 1)
        #expect(plan.queryPlanDetails.indices.allSatisfy { plan.queryPlanDetails[$0].contains(" rows=") == (plan.estimatedRows[$0] != nil) })
        let folded = try await store.explain(ofType: "Item", matching: FormatPredicate(format: "title BEGINSWITH[cd] 'TITLE 12'"))
        #expect(folded.indexesUsed == ["Item$title$cd$index"])
        #expect(try await store.records(ofType: "Item", matching: FormatPredicate(format: "title BEGINSWITH[cd] 'TITLE 12'")).count == 111)
    }
}

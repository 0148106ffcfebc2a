import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
@testable import RecordStorePostgres
import Testing

/// PostgreSQL writers notify their commits only while a backend listens for a zone they changed
/// (`$listeners`): a notifying commit holds the database's notification queue through its WAL
/// flush, so notifying writers commit one at a time.
@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
struct PostgresChangeNotificationTests {
    /// Waits (at most 5 seconds, asking every 10 ms: the server has no event for it) until a
    /// listener of the store at `schema` has registered; false when none did.
    static func waitUntilRegistered(url: String, schema: String) async throws -> Bool {
        for _ in 0..<500 {
            if try await PostgresAdministration.value(url: url, sql: "SELECT count(*) FROM \"\(schema)\".\"$listeners\"") == .integer(1) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test("An observer that starts beside a writer that found nobody listening sees that writer's commit first")
    func anObserverStartingBesideAnUnnotifiedWriterMissesNothing() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let schema = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "schema" }?.value)
        let store = try await Store.open(url: url)
        _ = try await store.save([PostgresChangePositionTests.note("a", rank: 1)])
        #expect(try await PostgresAdministration.value(url: url, sql: "SELECT count(*) FROM \"\(schema)\".\"$listeners\"") == .integer(0))

        // Another process's save of `b`: its history statement finds nobody listening, so it
        // sends no notification; it is held there, before its commit.
        let engine = try await PostgresEngine.open(PostgresLocation(url))
        let (started, didStart) = AsyncStream<Void>.makeStream()
        let (goOn, letGoOn) = AsyncStream<Void>.makeStream()
        let writer = Task {
            try await engine.write(registersItself: true) { connection, _ in
                var transaction = PostgresWriteTransaction(connection: connection, executor: engine.executor, changeChannel: engine.changeChannel)
                let outcome = try await SaveProcedure.run(
                    RecordChangeSet(saving: [PostgresChangePositionTests.note("b", rank: 2)]), mode: .development, in: &transaction)
                didStart.yield()
                didStart.finish()
                for await _ in goOn { break }
                return outcome.saved.count
            }
        }
        for await _ in started { break }

        // An observer starts: its engine listens, registers, and waits for that writer to end
        // before the first read.
        let request = FetchRequest(entityName: "Note", predicate: .truePredicate, sortDescriptors: [Sort("rank")])
        let firstReturned = LockedState(false)
        let firstResults = Task {
            defer { firstReturned.withLock { $0 = true } }
            var changes = store.observe(request).makeAsyncIterator()
            return try await changes.next()?.records.records.map(\.recordID.recordName)
        }
        #expect(try await Self.waitUntilRegistered(url: url, schema: schema), "the observer's engine did not register as a listener")
        // Registered, it waits for that writer, watching it: nobody asks for the writers' lock,
        // and the observer has read nothing yet.
        #expect(try await !PostgresChangePositionTests.somebodyWaitsForTheWritersLock(url: url, schema: schema))
        #expect(!firstReturned.withLock { $0 }, "the listener did not wait for the writer running when it registered")
        letGoOn.yield()
        letGoOn.finish()
        #expect(try await writer.value == 1)
        #expect(try await firstResults.value == ["a", "b"])
    }

    @Test("Writers notify only for the zones somebody observes; the listener's row follows its observers")
    func writersNotifyOnlyForObservedZones() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let schema = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "schema" }?.value)
        let store = try await Store.open(url: url)
        let other = ZoneID(zoneName: "Other")
        try await store.createZone(other)
        _ = try await store.save([PostgresChangePositionTests.note("a", rank: 1)])

        // A connection that listens on the store's channel without a row of its own: it hears
        // what the writers send for the store's observers, and nothing else.
        let engine = try await PostgresEngine.open(PostgresLocation(url))
        let heard = LockedState<[String]>([])
        let (listening, isListening) = AsyncStream<Void>.makeStream()
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let spy = Task {
            try await engine.primary.connections.client.withConnection { connection in
                try await connection.listen(on: engine.changeChannel) { notifications in
                    isListening.yield()
                    for try await notification in notifications {
                        let changes = try PostgresChangeNotifications.changes(fromPayload: notification.payload)
                        heard.withLock { $0 += changes.entries.map { "\($0.recordID.zoneID.zoneName)/\($0.recordID.recordName)" } }
                        arrived.yield()
                    }
                }
            }
        }
        defer { spy.cancel() }
        for await _ in listening { break }
        var arrival = arrivals.makeAsyncIterator()

        func rows() async throws -> SQLValue? {
            try await PostgresAdministration.value(url: url, sql: "SELECT string_agg(coalesce(array_to_string(zones, ','), '*'), ';') FROM \"\(schema)\".\"$listeners\"")
        }
        func note(_ name: String, in zone: ZoneID) -> Record {
            Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone), fields: ["rank": .int(1)])
        }

        // Observers of Note in the default zone: the row names that zone alone.
        var defaultZone = try store.observe(RecordQuery(recordType: "Note", predicate: .truePredicate), inZone: .default).makeAsyncIterator()
        _ = try await defaultZone.next()
        #expect(try await rows() == .text(ZoneID.default.zoneName))
        // A save in the other zone sends nothing; the next one, in the default zone, is heard first.
        _ = try await store.save([note("b", in: other)])
        _ = try await store.save([note("c", in: .default)])
        _ = await arrival.next()
        #expect(heard.withLock { $0 } == ["\(ZoneID.default.zoneName)/c"])

        // An observer of the other zone: the row names it before that observer's first read.
        do {
            var otherZone = try store.observe(RecordQuery(recordType: "Note", predicate: .truePredicate), inZone: other).makeAsyncIterator()
            #expect(try await otherZone.next()?.records.records.map(\.recordID.recordName) == ["b"])
            #expect(try await rows() == .text("Other,\(ZoneID.default.zoneName)"))
            _ = try await store.save([note("d", in: other)])
            _ = await arrival.next()
            #expect(heard.withLock { $0 } == ["\(ZoneID.default.zoneName)/c", "Other/d"])
        }

        // That observer gone, the row names the default zone alone again (written without
        // waiting: wait for it, a bounded while), and the other zone's writers stop notifying.
        var shrunk = false
        for _ in 0..<500 where !shrunk {
            shrunk = try await rows() == .text(ZoneID.default.zoneName)
            if !shrunk { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(shrunk, "the listener's row still names the other zone")
        _ = try await store.save([note("e", in: other)])
        _ = try await store.save([note("f", in: .default)])
        _ = await arrival.next()
        #expect(heard.withLock { $0 } == ["\(ZoneID.default.zoneName)/c", "Other/d", "\(ZoneID.default.zoneName)/f"])
        _ = defaultZone
    }

    @Test("A layout-4 store's listeners' table gets its zones when opened; a row that names none listens for every zone")
    func layoutFourGainsListenedZones() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        _ = try await Store.open(url: url)
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        try await engine.write { connection in
            try await connection.execute(SQLStatement(sql: #"ALTER TABLE "$listeners" DROP COLUMN zones, DROP COLUMN prefixes"#))
            try await connection.execute(SQLStatement(sql: #"UPDATE "$metadata" SET value = '4'::bytea WHERE name = 'layoutVersion'"#))
        }
        _ = try await Store.open(url: url)
        let after = try await PostgresEngine.open(try PostgresLocation(url))
        let (version, everyZone) = try await after.write { connection in
            // What a server of layout 4 writes: its backend's ID alone.
            try await connection.execute(SQLStatement(sql: #"INSERT INTO "$listeners" (pid) VALUES (pg_backend_pid())"#))
            let everyZone = try await connection.firstRow(SQLStatement(sql: #"SELECT zones IS NULL AND prefixes = '{}' FROM "$listeners""#)) { $0.value(at: 0) }
            return (try await PostgresLayoutMigration(connection: connection).storedVersion(), everyZone)
        }
        #expect(version == 5)
        #expect(everyZone == .integer(1))
    }
}

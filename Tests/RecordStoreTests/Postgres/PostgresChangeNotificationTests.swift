import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
@testable import RecordStorePostgres
import Testing

/// PostgreSQL writers notify their commits only while a backend listens (`$listeners`): a
/// notifying commit holds the database's notification queue through its WAL flush, so
/// notifying writers commit one at a time.
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
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
@testable import RecordStorePostgres
import Testing

/// PostgreSQL's change positions are transaction IDs, taken with no lock
/// (`PostgresChangePositions`): a writer that took its ID first can commit after one that took
/// a later ID. A reader of changes must then neither skip the first writer's change nor miss
/// its own commit.
@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
struct PostgresChangePositionTests {
    static func note(_ name: String, rank: Int64) -> Record {
        Record(recordType: "Note", recordID: RecordID(recordName: name), fields: ["rank": .int(rank)])
    }

    /// Whether anybody waits for the writers' lock of the store at `schema` (`pg_locks`: a
    /// request of the writers' advisory lock, not granted yet), which every later writer would
    /// queue behind.
    static func somebodyWaitsForTheWritersLock(url: String, schema: String) async throws -> Bool {
        let key = "hashtextextended('query-store-writers:' || current_database() || ':' || '\(schema)', 0)"
        let count = try await PostgresAdministration.value(url: url, sql: """
            SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                AND classid::bigint = ((\(key) >> 32) & 4294967295) AND objid::bigint = (\(key) & 4294967295)
            """)
        return (count?.integerValue ?? 0) > 0
    }

    @Test("A writer that took its position first and commits last is neither skipped nor hides a later commit from its reader, who holds no writer up")
    func anOlderWriterCommittingLastIsNotSkipped() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let schema = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "schema" }?.value)
        let store = try await Store.open(url: url)
        _ = try await store.save([Self.note("a", rank: 1), Self.note("b", rank: 2)])
        let token = try await store.changes(in: .default).token
        #expect(try await store.changes(in: .default, since: token).changedRecords.isEmpty)

        // A second process's writer: registered, with its transaction ID taken (as its first
        // write takes it), held there until told to go on; it then records `a`'s change (at its
        // position: that ID) and commits.
        let engine = try await PostgresEngine.open(PostgresLocation(url))
        let (started, didStart) = AsyncStream<Void>.makeStream()
        let (goOn, letGoOn) = AsyncStream<Void>.makeStream()
        let olderWriter = Task {
            try await engine.write { connection in
                try await connection.execute(SQLStatement(sql: "SELECT txid_current()"))
                didStart.yield()
                didStart.finish()
                for await _ in goOn { break }
                let changes = CommittedChanges(sequence: 0, entries: [.init(kind: .updated, recordID: RecordID(recordName: "a"), recordType: "Note")])
                return try await PostgresCommitStatement(changes, date: Date(), channel: engine.changeChannel).run(on: connection).position
            }
        }
        for await _ in started { break }

        // A later writer commits first.
        _ = try await store.save([Self.note("c", rank: 3)])
        // Its reader waits for the older writer to end, then reads the changes.
        let readerReturned = LockedState(false)
        let reading = Task {
            defer { readerReturned.withLock { $0 = true } }
            return try await store.changes(in: .default, since: token)
        }
        // Meanwhile another writer commits: the waiting reader asks for no lock a writer needs.
        _ = try await store.save([Self.note("d", rank: 4)])
        #expect(try await !Self.somebodyWaitsForTheWritersLock(url: url, schema: schema))
        #expect(!readerReturned.withLock { $0 }, "the reader did not wait for the writer that took its position first")
        letGoOn.yield()
        letGoOn.finish()
        let olderPosition = try await olderWriter.value
        let changes = try await reading.value
        // `a`'s change comes first, at the older writer's position, though it committed last.
        #expect(changes.changedRecords.map(\.recordID.recordName) == ["a", "c", "d"])
        let positions = try await PostgresAdministration.value(
            url: url, sql: "SELECT max(position) FROM \"\(schema)\".\"\(TableLayout.registryTable)\" WHERE recordName = 'c'")
        #expect(olderPosition < (positions?.integerValue ?? 0))
        let after = try await store.changes(in: .default, since: changes.token)
        #expect(after.changedRecords.isEmpty && after.deletedRecords.isEmpty)
    }

    @Test("A store's new change positions start above its stored ones, whatever the cluster's transaction IDs")
    func positionsStartAboveStoredOnes() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let schema = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "schema" }?.value)
        let store = try await Store.open(url: url)
        _ = try await store.save([Self.note("a", rank: 1)])
        // As if the store's rows came from a cluster whose transaction IDs ran far ahead of this
        // one's (a backup restored, a store moved): its zone holds a far greater position.
        let far: Int64 = 1 << 40
        try await PostgresAdministration.value(url: url, sql: "UPDATE \"\(schema)\".\"\(TableLayout.registryTable)\" SET position = \(far)")
        try await PostgresAdministration.value(url: url, sql: "UPDATE \"\(schema)\".\"$zones\" SET position = \(far)")
        let token = try await store.changes(in: .default).token
        // Opening raises the base: the next save's position is above every stored one.
        let reopened = try await Store.open(url: url)
        _ = try await reopened.save([Self.note("b", rank: 2)])
        let position = try await PostgresAdministration.value(
            url: url, sql: "SELECT position FROM \"\(schema)\".\"\(TableLayout.registryTable)\" WHERE recordName = 'b'")
        #expect((position?.integerValue ?? 0) > far)
        // A token made before: under the far position, which no bound had reached. Its reader
        // reads `a` at its far position, then `b`, each once; and nothing after.
        let changes = try await reopened.changes(in: .default, since: token)
        #expect(changes.changedRecords.map(\.recordID.recordName) == ["a", "b"])
        #expect(try await reopened.changes(in: .default, since: changes.token).changedRecords.isEmpty)
    }
}

import Foundation
import GRDB
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
@testable import RecordStoreSQLite
import Testing
import TestSupport

/// Looking records up by identifier (`Store.records(for:)`, what `records/lookup` and every
/// `records/modify` read first) costs a few statements whatever the number of records: the
/// registry a chunk of names at a time, then each record type's rows of the chunk.
struct LookupStatementCountTests {
    /// A connection that counts the statements it runs.
    final class CountingConnection: SQLConnection, @unchecked Sendable {
        let base: RecordStoreSQLite.SQLiteConnection
        private(set) var statements = 0

        init(_ base: RecordStoreSQLite.SQLiteConnection) { self.base = base }

        func execute(_ statement: SQLStatement) async throws {
            statements += 1
            try base.execute(statement)
        }

        func forEachRow(_ statement: SQLStatement, _ body: (RecordStoreSQLite.SQLiteConnection.Row) throws -> Bool) async throws {
            statements += 1
            try base.forEachRow(statement, body)
        }

        func canPrepare(_ statement: SQLStatement) async throws -> Bool { try base.canPrepare(statement) }
    }

    /// The records found and the statements run to look up `ids` in the store at `path`.
    static func lookUp(_ ids: [RecordID], path: String) throws -> (found: [RecordID: RecordStoreCore.Record], statements: Int) {
        let queue = try DatabaseQueue(path: path)
        let executor = SQLExecutor(dialect: SQLiteDialect(registry: nil))
        return try queue.read { db in
            try RecordStoreSQLite.SQLiteConnection.run(db) { connection in
                let counting = CountingConnection(connection)
                let found = try await executor.records(for: ids, on: counting)
                return (found, counting.statements)
            }
        }
    }

    @Test("10, 500 and 501 records of two types and two zones: the statements do not grow with the records")
    func statementsDoNotGrowWithTheRecords() async throws {
        let path = TestFolders.file("lookup-count", named: "store.sqlite")
        let store = try Store.open(path: path)
        let trips = ZoneID(zoneName: "Trips")
        try await store.createZone(trips)
        var records: [RecordStoreCore.Record] = []
        for index in 0..<600 {
            records.append(RecordStoreCore.Record(recordType: index % 2 == 0 ? "City" : "Town", recordID: RecordID(recordName: "r\(index)"),
                                  fields: ["name": .string("place \(index)"), "rank": .int(Int64(index))]))
        }
        records.append(RecordStoreCore.Record(recordType: "City", recordID: RecordID(recordName: "t1", zoneID: trips), fields: ["name": .string("trip")]))
        _ = try await store.save(records)

        // The catalog costs what it costs; the lookups add one registry read a zone and a chunk,
        // and one read a record type found in it.
        let (_, catalogOnly) = try Self.lookUp([], path: path)
        let ten = (0..<10).map { RecordID(recordName: "r\($0)") }
        let (tenFound, tenStatements) = try Self.lookUp(ten, path: path)
        #expect(tenStatements == catalogOnly + 1 + 2)
        #expect(tenFound.count == 10)
        #expect(tenFound[RecordID(recordName: "r3")]?.recordType == "Town")
        #expect(tenFound[RecordID(recordName: "r3")]?["rank"] == .int(3))

        let fiveHundred = (0..<500).map { RecordID(recordName: "r\($0)") }
        let (fiveHundredFound, fiveHundredStatements) = try Self.lookUp(fiveHundred, path: path)
        #expect(fiveHundredStatements == tenStatements)
        #expect(Set(fiveHundredFound.keys) == Set(fiveHundred))
        #expect((0..<500).allSatisfy { fiveHundredFound[RecordID(recordName: "r\($0)")]?["rank"] == .int(Int64($0)) })

        // One more chunk past 500 names (in code-point order, its two are r98 and r99: a City
        // and a Town), another zone, a missing record and a repeated one.
        let mixed = (0..<501).map { RecordID(recordName: "r\($0)") } + [RecordID(recordName: "t1", zoneID: trips), RecordID(recordName: "nope"), RecordID(recordName: "r0")]
        let (mixedFound, mixedStatements) = try Self.lookUp(mixed, path: path)
        #expect(mixedStatements == catalogOnly + (1 + 2) + (1 + 2) + (1 + 1))
        #expect(mixedFound.count == 502)
        #expect(mixedFound[RecordID(recordName: "t1", zoneID: trips)]?["name"] == .string("trip"))
        #expect(mixedFound[RecordID(recordName: "nope")] == nil)
    }
}

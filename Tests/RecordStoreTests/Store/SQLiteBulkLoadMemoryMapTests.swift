import EngineTestSupport
import Foundation
import GRDB
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@testable import RecordStoreSQLite

/// The writer reads through a memory map only while a bulk load runs (``SQLiteBulkLoadMemoryMap``).
struct SQLiteBulkLoadMemoryMapTests {
    /// The writer connection's map size.
    private static func mappedBytes(_ engine: SQLiteEngine) throws -> Int? {
        try engine.pool.write { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") }
    }

    @Test("A bulk load maps the file for the writer, and its end drops the map")
    func bulkLoadMapsTheFile() throws {
        let path = TestEngine.temporaryDatabasePath("bulk-load-map")
        let engine = try SQLiteEngine(path: path)
        #expect(try Self.mappedBytes(engine) == 0)
        try SynchronousCall.wait { try await engine.beginBulkLoad(of: "Place", incoming: 1_000) }
        #expect(try Self.mappedBytes(engine) == SQLiteBulkLoadMemoryMap.bytes)
        let store = Store(engine: engine)
        try store.save([RecordStore.Record(recordType: "Place", recordID: RecordID(recordName: "p1"), fields: ["title": .string("São Paulo")])])
        try SynchronousCall.wait { try await engine.finishBulkLoad(progress: nil) }
        #expect(try Self.mappedBytes(engine) == 0)
        #expect(try store.count(ofType: "Place", matching: FormatPredicate(format: "title ==[cd] 'sao paulo'")) == 1)
    }
}

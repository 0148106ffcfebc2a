import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import RecordStore
@testable import RecordStoreCore
@testable import RecordStorePostgres
@_spi(StorageEngine) @testable import RecordStoreSQL
import Testing

/// Issue #27, item 8, on PostgreSQL: a store written before string fields had their spelling
/// column (``StoredSpelling``) keeps opening, reads back as it did, and keeps new spellings; a
/// batch large enough to go through `COPY` keeps the client's bytes as an `INSERT` does.
@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
struct PostgresSpellingColumnTests {
    static let composed = "B\u{E0}mak\u{254}"
    static let decomposed = "Ba\u{300}mak\u{254}"

    static func city(_ name: String, _ text: String) -> RecordStore.Record {
        RecordStore.Record(recordType: "City", recordID: RecordID(recordName: name), fields: ["name": .string(text), "names": [.string(text)]])
    }

    static func bytes(_ value: Value?) -> [UInt8]? {
        guard case .string(let string)? = value else { return nil }
        return Array(string.utf8)
    }

    @Test func aStoreWithoutSpellingColumnsOpensAndGainsThem() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        _ = try await Store.open(url: url).save([Self.city("old", Self.composed)])
        // The table as the engine wrote it before the spelling column existed.
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        try await engine.write { connection in
            try await connection.execute(SQLStatement(sql: #"ALTER TABLE "City" DROP COLUMN "name$raw""#))
        }
        let reopened = try await Store.open(url: url)
        #expect(Self.bytes(try await reopened.record(for: RecordID(recordName: "old"))?["name"]) == Array(Self.composed.utf8))
        _ = try await reopened.save([Self.city("new", Self.decomposed)])
        #expect(Self.bytes(try await reopened.record(for: RecordID(recordName: "new"))?["name"]) == Array(Self.decomposed.utf8))
        #expect(try await reopened.count(ofType: "City", matching: FormatPredicate(format: "name == 'B\\u00E0mak\\u0254'")) == 2)
    }

    @Test func aCopiedBatchKeepsTheClientsBytes() async throws {
        let store = try await PostgresTestServer.makeAsyncStore()
        let count = PostgresRecordWriter.fewestRecordsToCopy + 10
        _ = try await store.save((0..<count).map { Self.city("c\($0)", $0.isMultiple(of: 2) ? Self.decomposed : Self.composed) })
        let records = try await store.records(ofType: "City", matching: FormatPredicate(format: "name BEGINSWITH 'B\\u00E0'"))
        #expect(records.count == count)
        for record in records {
            let index = Int(record.recordID.recordName.dropFirst()) ?? -1
            let expected = Array((index.isMultiple(of: 2) ? Self.decomposed : Self.composed).utf8)
            #expect(Self.bytes(record["name"]) == expected, "\(record.recordID.recordName)")
            guard case .list(let members)? = record["names"] else { Issue.record("no list in \(record.recordID.recordName)"); continue }
            #expect(members.map { Self.bytes($0) } == [expected])
        }
    }
}

import EngineTestSupport
import Foundation
import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@testable import RecordStorePostgres
@_spi(StorageEngine) @testable import RecordStoreSQL
import Testing

/// Assets on PostgreSQL are rows of chunks (`$asset_chunks`), written and read one statement a
/// chunk: a store that kept them whole in a `bytea` column has them moved into chunks when
/// opened, and the chunks of an upload that never ended are swept.
@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
struct PostgresAssetChunkTests {
    /// The number of an upload's chunk rows (`like` a key pattern).
    static func chunkRows(_ engine: PostgresEngine, like pattern: String) async throws -> Int {
        try await engine.read { connection in
            var count = 0
            try await connection.forEachRow(SQLStatement(sql: #"SELECT count(*) FROM "$asset_chunks" WHERE upload LIKE $1"#, arguments: [.text(pattern)])) { row in
                if case .integer(let value) = row.value(at: 0) { count = Int(value) }
                return false
            }
            return count
        }
    }

    @Test func aStoreThatKeptAssetsWholeHasThemInChunksOnceOpened() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        _ = try await Store.open(url: url)
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        let large = AssetStorageTests.pattern(Asset.chunkSize + 7)
        let files: [(bytes: Data, pending: Bool)] = [(large, false), (Data("small".utf8), false), (Data(), false), (Data("never referenced".utf8), true)]
        // The tables as stores made before chunks had them: the bytes whole in `$assets`.
        try await engine.write { connection in
            for statement in [#"DROP TABLE "$asset_chunks""#, #"DROP TABLE "$asset_claims""#, #"ALTER TABLE "$assets" DROP COLUMN chunks"#,
                              #"ALTER TABLE "$assets" ALTER COLUMN bytes SET NOT NULL"#] {
                try await connection.execute(SQLStatement(sql: statement))
            }
            for file in files {
                let asset = Asset(bytes: file.bytes)
                try await connection.execute(SQLStatement(
                    sql: #"INSERT INTO "$assets" (name, size, bytes, pending_since) VALUES ($1, $2, $3, $4)"#,
                    arguments: [.text("\(asset.checksumHex)-\(asset.size)"), .integer(asset.size), .blob(file.bytes), file.pending ? .real(1000) : .null]))
            }
        }

        let reopened = try await Store.open(url: url)
        for file in files {
            #expect(try await reopened.assetData(Asset(bytes: file.bytes)) == file.bytes)
        }
        var sizes: [Int] = []
        for try await chunk in try await reopened.assetChunks(Asset(bytes: large)) { sizes.append(chunk.count) }
        #expect(sizes == [Asset.chunkSize, 7])
        #expect(try await Self.chunkRows(engine, like: "whole-%") == 4)
        // The pending one is swept with its chunk; the kept ones stay.
        #expect(try await reopened.removeUnreferencedAssets(uploadedBefore: Date(timeIntervalSince1970: 2000)) == 1)
        #expect(try await Self.chunkRows(engine, like: "whole-%") == 3)
        #expect(try await reopened.assetData(Asset(bytes: large)) == large)
        // New uploads and claims work on the migrated store.
        #expect(try await reopened.claimAssetUpload("upload-a", expires: Date().addingTimeInterval(60)))
        let added = try await reopened.saveAsset(Data("added".utf8))
        #expect(try await reopened.assetData(added) == Data("added".utf8))
    }

    @Test func theChunksOfAnUploadThatNeverEndedAreSwept() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let store = try await Store.open(url: url)
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        let kept = try await store.saveAsset(AssetStorageTests.pattern(Asset.chunkSize + 1))
        let abandoned = try await store.beginAsset()
        let bytes = AssetStorageTests.pattern(Asset.chunkSize + 5)
        try await abandoned.write(bytes)
        // Its first chunk is a row before the upload ends.
        #expect(try await Self.chunkRows(engine, like: "upload-%") == 3)
        _ = try await store.removeUnreferencedAssets(uploadedBefore: Date().addingTimeInterval(60))
        #expect(try await Self.chunkRows(engine, like: "upload-%") == 2)
        #expect(try await store.assetData(kept) == AssetStorageTests.pattern(Asset.chunkSize + 1))
        // Finishing it now finds a chunk missing, and keeps nothing.
        do {
            _ = try await abandoned.finish()
            Issue.record("an upload that lost a chunk was kept")
        } catch {
            let lost = RecordStoreError.storage("the upload of asset \(Asset(bytes: bytes)) lost 1 of its 2 chunks (removed as abandoned); upload it again")
            #expect(error.description == "the asset could not be kept or read: \(lost)")
        }
        #expect(try await Self.chunkRows(engine, like: "upload-%") == 2)
    }
}

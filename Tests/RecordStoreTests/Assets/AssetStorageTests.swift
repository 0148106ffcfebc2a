import EngineTestSupport
import Foundation
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import Testing

/// Assets on every engine: bytes kept and read back, held by a record field, pending uploads
/// removed after their time while kept ones stay, bytes moved a chunk at a time both ways, and
/// single-use upload claims.
@Suite struct AssetStorageTests {
    static let bytes = Data("hello, asset".utf8)

    @Test(arguments: TestEngine.allCases)
    func bytesRoundTripThroughAStoreAndARecord(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let asset = try await store.saveAsset(Self.bytes)
        #expect(asset.size == 12)
        #expect(asset.checksumHex == "87435a4e474386723cdabc189a2618caac8fbca65e4e1d83d79b1ad5ad88cb23")
        #expect(asset.fileChecksum == "h0NaTkdDhnI82rwYmiYYyqyPvKZeTh2D15sa1a2IyyM=")
        #expect(try await store.assetData(asset) == Self.bytes)
        // The same bytes again: the same asset, kept once.
        #expect(try await store.saveAsset(Self.bytes) == asset)

        var note = Record(recordType: "Note", recordID: RecordID(recordName: "n1"))
        note["title"] = "with a file"
        note["attachment"] = asset.value
        _ = try await store.save([note])
        let read = try #require(try await store.record(for: note.recordID))
        #expect(Asset(read["attachment"]) == asset)
        #expect(Asset(read["title"]) == nil)
        let withFile = try await store.records(ofType: "Note", matching: FormatPredicate(format: "attachment != nil"))
        #expect(withFile.map(\.recordID.recordName) == ["n1"])
    }

    @Test(arguments: TestEngine.allCases)
    func pendingUploadsAreRemovedAfterTheirTimeAndKeptOnesStay(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let now = Date()
        func put(_ text: String, age: TimeInterval) async throws -> Asset {
            let upload = try await store.beginAsset()
            try await upload.write(Data(text.utf8))
            let asset = try await upload.finish(pending: true, date: now.addingTimeInterval(-age))
            #expect(asset == Asset(bytes: Data(text.utf8)))
            return asset
        }
        let stale = try await put("never referenced", age: 100_000)
        let recent = try await put("uploaded a minute ago", age: 60)
        let referenced = try await put("referenced by a record", age: 100_000)
        try await store.keepAssets([referenced])
        let kept = try await store.saveAsset(Data("saved by the library".utf8))

        let removed = try await store.removeUnreferencedAssets(uploadedBefore: now.addingTimeInterval(-Store.unreferencedAssetLifetime))
        #expect(removed == 1)
        do {
            _ = try await store.assetData(stale)
            Issue.record("a stale upload was kept")
        } catch {
            #expect(error.description == "asset \(stale) is not stored")
        }
        #expect(try await store.assetData(recent) == Data("uploaded a minute ago".utf8))
        #expect(try await store.assetData(referenced) == Data("referenced by a record".utf8))
        #expect(try await store.assetData(kept) == Data("saved by the library".utf8))
        // Keeping a removed upload names it.
        do {
            try await store.keepAssets([recent, stale])
            Issue.record("a removed upload was kept")
        } catch {
            #expect(error.description == "asset \(stale) is not stored")
        }
    }

    @Test func sqliteKeepsAssetsAsFilesBesideTheStore() throws {
        let path = TestEngine.temporaryDatabasePath("assets")
        let store = try Store.open(path: path)
        let asset = try store.saveAsset(Self.bytes)
        let file = "\(path).assets/87435a4e474386723cdabc189a2618caac8fbca65e4e1d83d79b1ad5ad88cb23-12"
        #expect(FileManager.default.contents(atPath: file) == Self.bytes)
        #expect(try store.assetData(asset) == Self.bytes)
    }

    @Test func assetValuesReadBackFromTheirReference() {
        let asset = Asset(bytes: Self.bytes)
        #expect(asset.value == .reference(Reference(
            recordName: "sha256-87435a4e474386723cdabc189a2618caac8fbca65e4e1d83d79b1ad5ad88cb23-12", zoneName: "$assets")))
        #expect(Asset(asset.value) == asset)
        #expect(Asset(.reference(Reference(recordName: "sha256-87435a4e474386723cdabc189a2618caac8fbca65e4e1d83d79b1ad5ad88cb23-12"))) == nil)
        #expect(Asset(.reference(Reference(recordName: "sha256-zz-12", zoneName: "$assets"))) == nil)
        #expect(Asset(.string("sha256-87435a4e474386723cdabc189a2618caac8fbca65e4e1d83d79b1ad5ad88cb23-12")) == nil)
        #expect(asset.description == "sha256:87435a4e474386723cdabc189a2618caac8fbca65e4e1d83d79b1ad5ad88cb23 (12 bytes)")
    }

    /// Bytes of a size, none alike in a run of 251.
    static func pattern(_ count: Int) -> Data {
        Data((0..<count).map { UInt8($0 % 251) })
    }

    @Test(arguments: TestEngine.allCases)
    func anAssetMovesInChunksBothWays(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let bytes = Self.pattern(2 * Asset.chunkSize + Asset.chunkSize / 2 + 1)
        // Written in pieces that are not chunks: the engine gets whole chunks, the last shorter.
        let upload = try await store.beginAsset(maximumSize: Int64(bytes.count))
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + 100_000, bytes.count)
            try await upload.write(bytes[offset..<end])
            offset = end
        }
        #expect(upload.size == Int64(bytes.count))
        let asset = try await upload.finish()
        #expect(asset == Asset(bytes: bytes))
        var chunks: [Data] = []
        for try await chunk in try await store.assetChunks(asset) { chunks.append(chunk) }
        #expect(chunks.map(\.count) == [Asset.chunkSize, Asset.chunkSize, Asset.chunkSize / 2 + 1])
        #expect(chunks.reduce(Data(), +) == bytes)
        #expect(try await store.assetData(asset) == bytes)
        // The empty file: no chunk at all.
        let empty = try await store.saveAsset(Data())
        var emptyChunks = 0
        for try await _ in try await store.assetChunks(empty) { emptyChunks += 1 }
        #expect(emptyChunks == 0)
        #expect(try await store.assetData(empty) == Data())
    }

    @Test(arguments: TestEngine.allCases)
    func anUploadPastItsLimitKeepsNothing(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let upload = try await store.beginAsset(maximumSize: 10)
        try await upload.write(Data("123456".utf8))
        do {
            try await upload.write(Data("78901".utf8))
            Issue.record("an upload past its limit was taken")
        } catch {
            #expect(error.description == "the asset has 11 bytes, more than the limit of 10")
        }
        do {
            _ = try await upload.finish()
            Issue.record("a refused upload was finished")
        } catch {
            #expect(error.description == "the asset upload was already finished, cancelled or refused")
        }
        do {
            _ = try await store.assetData(Asset(bytes: Data("123456".utf8)))
            Issue.record("part of a refused upload was kept")
        } catch {
            #expect(error.description == "asset \(Asset(bytes: Data("123456".utf8))) is not stored")
        }
    }

    @Test(arguments: TestEngine.allCases)
    func anUploadClaimIsGrantedOnceAndForgottenAfterItExpires(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let expiry = Date().addingTimeInterval(3600)
        #expect(try await store.claimAssetUpload("upload-a", expires: expiry))
        #expect(try await !store.claimAssetUpload("upload-a", expires: expiry))
        #expect(try await store.claimAssetUpload("upload-b", expires: expiry.addingTimeInterval(60)))
        // The sweep forgets claims expired before its date (by then their URLs are refused anyway).
        _ = try await store.removeUnreferencedAssets(uploadedBefore: expiry.addingTimeInterval(30))
        #expect(try await store.claimAssetUpload("upload-a", expires: expiry))
        #expect(try await !store.claimAssetUpload("upload-b", expires: expiry))
        do {
            _ = try await store.claimAssetUpload("../escape", expires: expiry)
            Issue.record("an identifier with a path was taken")
        } catch {
            #expect(error.description == "the asset could not be kept or read: \(RecordStoreError.storage("an upload's identifier is 1 to 64 letters, digits, '-' and '_', not '../escape'"))")
        }
    }

    @Test func anUploadClaimIsSeenByEveryStoreOverTheSameFiles() async throws {
        let path = TestEngine.temporaryDatabasePath("asset-claims")
        let first = try Store.open(path: path)
        let second = try Store.open(path: path)
        let expiry = Date().addingTimeInterval(3600)
        #expect(try await first.claimAssetUpload("upload-a", expires: expiry))
        #expect(try await !second.claimAssetUpload("upload-a", expires: expiry))
    }

    @Test func sqliteWritesAnUploadToAFileOfItsOwnAndRemovesAnAbandonedOne() async throws {
        let path = TestEngine.temporaryDatabasePath("asset-incoming")
        let store = try Store.open(path: path)
        let incoming = path + ".assets/incoming"
        let upload = try await store.beginAsset()
        try await upload.write(Self.pattern(Asset.chunkSize + 5))
        // A chunk is in the upload's file before the upload ends.
        let names = try FileManager.default.contentsOfDirectory(atPath: incoming)
        #expect(names.count == 1)
        #expect(FileManager.default.contents(atPath: incoming + "/" + names[0]) == Self.pattern(Asset.chunkSize))
        // Never finished (its process ended): the sweep removes it.
        _ = try await store.removeUnreferencedAssets(uploadedBefore: Date().addingTimeInterval(60))
        #expect(try FileManager.default.contentsOfDirectory(atPath: incoming).isEmpty)
        // Finished: renamed to its name, nothing left behind.
        let bytes = Self.pattern(10)
        let finished = try await store.beginAsset()
        try await finished.write(bytes)
        let asset = try await finished.finish(pending: true)
        #expect(FileManager.default.contents(atPath: "\(path).assets/pending/\(asset.checksumHex)-10") == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: incoming).isEmpty)
    }
}

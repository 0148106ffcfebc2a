import EngineTestSupport
import Foundation
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import Testing

/// Assets on every engine: bytes kept and read back, held by a record field, pending uploads
/// removed after their time while kept ones stay.
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
            let bytes = Data(text.utf8)
            let asset = Asset(bytes: bytes)
            try await store.putAsset(asset, bytes: bytes, pending: true, date: now.addingTimeInterval(-age))
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
}

import Foundation

/// The memory engine keeps assets in memory, for its life (``MemoryAssetStorage``).
extension MemoryEngine: AssetStorage {
    package func makeAssetWriter() async throws(RecordStoreError) -> any AssetWriter {
        try await assets.makeAssetWriter()
    }

    package func makeAssetReader(for asset: Asset) async throws(RecordStoreError) -> (any AssetReader)? {
        try await assets.makeAssetReader(for: asset)
    }

    package func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset] {
        try await self.assets.keepAssets(assets)
    }

    package func claimAssetUpload(_ identifier: String, expires: Date) async throws(RecordStoreError) -> Bool {
        try await assets.claimAssetUpload(identifier, expires: expires)
    }

    package func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        try await assets.removePendingAssets(uploadedBefore: date)
    }
}

import Foundation

/// The memory engine keeps assets in memory, for its life (``MemoryAssetStorage``).
extension MemoryEngine: AssetStorage {
    package func putAsset(_ asset: Asset, bytes: Data, pending: Bool, date: Date) async throws(RecordStoreError) {
        try await assets.putAsset(asset, bytes: bytes, pending: pending, date: date)
    }

    package func assetBytes(_ asset: Asset) async throws(RecordStoreError) -> Data? {
        try await assets.assetBytes(asset)
    }

    package func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset] {
        try await self.assets.keepAssets(assets)
    }

    package func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        try await assets.removePendingAssets(uploadedBefore: date)
    }
}

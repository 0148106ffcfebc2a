import Foundation
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// The waiting engine keeps assets where its engine does (every engine it wraps in the tests
/// provides ``AssetStorage``).
extension WaitingEngine: AssetStorage {
    private func assetStorage() throws(RecordStoreError) -> any AssetStorage {
        guard let storage = base as? any AssetStorage else { throw .storage("the \(base.name) engine keeps no assets") }
        return storage
    }

    func putAsset(_ asset: Asset, bytes: Data, pending: Bool, date: Date) async throws(RecordStoreError) {
        try await assetStorage().putAsset(asset, bytes: bytes, pending: pending, date: date)
    }

    func assetBytes(_ asset: Asset) async throws(RecordStoreError) -> Data? {
        try await assetStorage().assetBytes(asset)
    }

    func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset] {
        try await assetStorage().keepAssets(assets)
    }

    func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        try await assetStorage().removePendingAssets(uploadedBefore: date)
    }
}

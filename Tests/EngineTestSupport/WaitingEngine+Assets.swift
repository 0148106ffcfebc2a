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

    func makeAssetWriter() async throws(RecordStoreError) -> any AssetWriter {
        try await assetStorage().makeAssetWriter()
    }

    func makeAssetReader(for asset: Asset) async throws(RecordStoreError) -> (any AssetReader)? {
        try await assetStorage().makeAssetReader(for: asset)
    }

    func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset] {
        try await assetStorage().keepAssets(assets)
    }

    func claimAssetUpload(_ identifier: String, expires: Date) async throws(RecordStoreError) -> Bool {
        try await assetStorage().claimAssetUpload(identifier, expires: expires)
    }

    func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        try await assetStorage().removePendingAssets(uploadedBefore: date)
    }
}

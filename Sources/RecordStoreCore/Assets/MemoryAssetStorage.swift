import Foundation
import PredicateLanguage

/// The memory engine's assets: bytes in a dictionary, for the engine's life.
///
/// ```swift
/// let storage = MemoryAssetStorage()
/// try await storage.putAsset(Asset(bytes: data), bytes: data, pending: false, date: Date())
/// ```
package final class MemoryAssetStorage: AssetStorage {
    private struct Entry {
        var bytes: Data
        /// When a pending upload was put; nil once kept.
        var pendingSince: Date?
    }

    private let entries = LockedState<[Asset: Entry]>([:])

    /// No assets.
    package init() {}

    package func putAsset(_ asset: Asset, bytes: Data, pending: Bool, date: Date) async throws(RecordStoreError) {
        entries.withLock { entries in
            if let existing = entries[asset] {
                if existing.pendingSince != nil { entries[asset]?.pendingSince = pending ? date : nil }
            } else {
                entries[asset] = Entry(bytes: bytes, pendingSince: pending ? date : nil)
            }
        }
    }

    package func assetBytes(_ asset: Asset) async throws(RecordStoreError) -> Data? {
        entries.withLock { $0[asset]?.bytes }
    }

    package func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset] {
        entries.withLock { entries in
            assets.filter { asset in
                guard entries[asset] != nil else { return true }
                entries[asset]?.pendingSince = nil
                return false
            }
        }
    }

    package func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        entries.withLock { entries in
            let stale = entries.filter { $0.value.pendingSince.map { $0 < date } ?? false }.keys
            for asset in stale { entries[asset] = nil }
            return stale.count
        }
    }
}

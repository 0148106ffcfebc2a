import Foundation
import PredicateLanguage

/// The memory engine's assets: bytes in a dictionary, for the engine's life. (Its records are in
/// memory too, so its assets are held whole; the chunks only pass through.)
///
/// ```swift
/// let storage = MemoryAssetStorage()
/// let writer = try await storage.makeAssetWriter()
/// try await writer.write(data)
/// try await writer.commit(as: Asset(bytes: data), pending: false, date: Date())
/// ```
package final class MemoryAssetStorage: AssetStorage {
    private struct Entry {
        var bytes: Data
        /// When a pending upload was put; nil once kept.
        var pendingSince: Date?
    }

    private let entries = LockedState<[Asset: Entry]>([:])
    /// The single-use upload claims and when each expires.
    private let claims = LockedState<[String: Date]>([:])

    /// No assets.
    package init() {}

    package func makeAssetWriter() async throws(RecordStoreError) -> any AssetWriter {
        Writer(storage: self)
    }

    package func makeAssetReader(for asset: Asset) async throws(RecordStoreError) -> (any AssetReader)? {
        entries.withLock { $0[asset]?.bytes }.map(Reader.init(bytes:))
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

    package func claimAssetUpload(_ identifier: String, expires: Date) async throws(RecordStoreError) -> Bool {
        claims.withLock { claims in
            guard claims[identifier] == nil else { return false }
            claims[identifier] = expires
            return true
        }
    }

    package func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        claims.withLock { claims in claims = claims.filter { $0.value >= date } }
        return entries.withLock { entries in
            let stale = entries.filter { $0.value.pendingSince.map { $0 < date } ?? false }.keys
            for asset in stale { entries[asset] = nil }
            return stale.count
        }
    }

    /// Files written bytes under their asset.
    private func commit(_ bytes: Data, as asset: Asset, pending: Bool, date: Date) {
        entries.withLock { entries in
            if let existing = entries[asset] {
                if existing.pendingSince != nil { entries[asset]?.pendingSince = pending ? date : nil }
            } else {
                entries[asset] = Entry(bytes: bytes, pendingSince: pending ? date : nil)
            }
        }
    }

    /// Gathers the chunks of a new asset.
    private final class Writer: AssetWriter {
        let storage: MemoryAssetStorage
        let bytes = LockedState(Data())

        init(storage: MemoryAssetStorage) {
            self.storage = storage
        }

        func write(_ chunk: Data) async throws(RecordStoreError) {
            bytes.withLock { $0.append(chunk) }
        }

        func commit(as asset: Asset, pending: Bool, date: Date) async throws(RecordStoreError) {
            storage.commit(bytes.withLock { $0 }, as: asset, pending: pending, date: date)
        }

        func discard() async {
            bytes.withLock { $0 = Data() }
        }
    }

    /// Slices an asset's bytes into chunks.
    private final class Reader: AssetReader {
        let bytes: Data
        /// The offset of the next chunk.
        let offset = LockedState(0)

        init(bytes: Data) {
            self.bytes = bytes
        }

        func next() async throws(RecordStoreError) -> Data? {
            offset.withLock { offset in
                guard offset < bytes.count else { return nil }
                let end = min(offset + Asset.chunkSize, bytes.count)
                defer { offset = end }
                return bytes.subdata(in: bytes.startIndex + offset..<bytes.startIndex + end)
            }
        }
    }
}

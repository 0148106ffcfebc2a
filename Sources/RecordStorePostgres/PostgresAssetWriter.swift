// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// A new asset written into `$asset_chunks` under a key of its own, one chunk a statement as it
/// arrives, then named by a row of `$assets` when committed (``PostgresAssetStorage``). Chunks of
/// an upload that never ends are removed by the storage's sweep, by their `written` time.
///
/// ```swift
/// let writer = PostgresAssetWriter(engine: engine)
/// try await writer.write(chunk)
/// try await writer.commit(as: asset, pending: true, date: Date())
/// ```
final class PostgresAssetWriter: AssetWriter {
    let engine: PostgresEngine
    /// The key of this upload's chunks.
    let upload = "upload-" + UUID().uuidString.lowercased()
    /// The chunks written so far.
    private let chunkCount = LockedState(0)

    init(engine: PostgresEngine) {
        self.engine = engine
    }

    func write(_ chunk: Data) async throws(RecordStoreError) {
        let position = chunkCount.withLock { count in
            defer { count += 1 }
            return count
        }
        let upload = upload
        try await engine.assetStatement { connection in
            try await PostgresAssetStorage(connection: connection).writeChunk(chunk, upload: upload, position: position, date: Date())
        }
    }

    func commit(as asset: Asset, pending: Bool, date: Date) async throws(RecordStoreError) {
        let (upload, count) = (upload, chunkCount.withLock { $0 })
        try await engine.write { connection in
            try await PostgresAssetStorage(connection: connection).commit(asset, upload: upload, chunkCount: count, pendingSince: pending ? date : nil)
        }
    }

    func discard() async {
        let upload = upload
        _ = try? await engine.assetStatement { connection in try await PostgresAssetStorage(connection: connection).removeChunks(upload: upload) }
    }
}
#endif

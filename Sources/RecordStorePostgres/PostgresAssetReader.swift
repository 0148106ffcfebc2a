// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// A stored asset's chunks read from `$asset_chunks` in order, one statement a chunk, so that a
/// slow download holds no connection between its chunks (``PostgresAssetStorage``).
///
/// ```swift
/// let reader = PostgresAssetReader(engine: engine, upload: key)
/// let first = try await reader.next()
/// ```
final class PostgresAssetReader: AssetReader {
    let engine: PostgresEngine
    /// The key of the asset's chunks.
    let upload: String
    /// The position of the next chunk.
    private let position = LockedState(0)

    init(engine: PostgresEngine, upload: String) {
        self.engine = engine
        self.upload = upload
    }

    func next() async throws(RecordStoreError) -> Data? {
        let (upload, position) = (upload, position.withLock { position in
            defer { position += 1 }
            return position
        })
        return try await engine.assetStatement { connection in
            try await PostgresAssetStorage(connection: connection).chunk(upload: upload, position: position)
        }
    }
}
#endif

import Foundation
@_spi(StorageEngine) import RecordStoreCore

/// A stored asset's file read a chunk at a time; the file is closed after the last chunk, or when
/// the reader is released (a file removed meanwhile is still read whole: the reader holds it open).
///
/// ```swift
/// let reader = try await storage.makeAssetReader(for: asset)
/// let first = try await reader?.next()
/// ```
struct FileAssetReader: AssetReader {
    let handle: FileHandle

    func next() async throws(RecordStoreError) -> Data? {
        let handle = handle
        return try await BlockingWork.run { () throws(RecordStoreError) -> Data? in
            let chunk = try FileAssetStorage.attempt("read an asset") { try handle.read(upToCount: Asset.chunkSize) }
            guard let chunk, !chunk.isEmpty else {
                try? handle.close()
                return nil
            }
            return chunk
        }
    }
}

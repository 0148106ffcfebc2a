import Foundation
@_spi(StorageEngine) import RecordStoreCore

/// A new asset written to its own file under `incoming/` (``FileAssetStorage``), a chunk at a
/// time, then renamed to its name when committed; a file left by a write that never ended is
/// removed by the storage's sweep, by its modification time.
///
/// ```swift
/// let writer = try await storage.makeAssetWriter()
/// try await writer.write(chunk)
/// try await writer.commit(as: asset, pending: true, date: Date())
/// ```
struct FileAssetWriter: AssetWriter {
    let storage: FileAssetStorage
    /// The file being written.
    let path: String
    let handle: FileHandle

    func write(_ chunk: Data) async throws(RecordStoreError) {
        let handle = handle
        try await BlockingWork.run { () throws(RecordStoreError) in
            try FileAssetStorage.attempt("write an asset") { try handle.write(contentsOf: chunk) }
        }
    }

    func commit(as asset: Asset, pending: Bool, date: Date) async throws(RecordStoreError) {
        let (handle, path, kept, waiting) = (handle, path, storage.keptPath(asset), storage.pendingPath(asset))
        try await BlockingWork.run { () throws(RecordStoreError) in
            let files = FileManager.default
            try FileAssetStorage.attempt("close the asset \(asset)") { try handle.close() }
            // The same bytes, already kept: they stay so.
            if files.fileExists(atPath: kept) {
                try? files.removeItem(atPath: path)
                return
            }
            let target = pending ? waiting : kept
            do {
                try files.moveItem(atPath: path, toPath: target)
            } catch {
                // Another upload of the same bytes got there first: its file is this one's.
                guard files.fileExists(atPath: target) else { throw .storage("could not keep the asset \(asset): \(error.localizedDescription)") }
                try? files.removeItem(atPath: path)
            }
            if pending {
                try FileAssetStorage.attempt("date the asset \(asset)") { try files.setAttributes([.modificationDate: date], ofItemAtPath: target) }
            } else if files.fileExists(atPath: waiting) {
                try? files.removeItem(atPath: waiting)
            }
        }
    }

    func discard() async {
        let (handle, path) = (handle, path)
        _ = try? await BlockingWork.run { () throws(RecordStoreError) in
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}

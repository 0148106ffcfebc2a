import Foundation
@_spi(StorageEngine) import RecordStoreCore

/// Assets as files in a folder beside a SQLite store (`cities.sqlite.assets/`): a kept asset is
/// the file `<sha256 hex>-<size>`, a pending upload (no saved record references it yet) the
/// same name under `pending/`, dated by the file's modification time. A new asset is written a
/// chunk at a time to a file of its own under `incoming/` (``FileAssetWriter``), then renamed to
/// its name, so a reader never sees a partial file; marking an upload kept is one more rename.
/// A download reads the file a chunk at a time (``FileAssetReader``). The single-use upload
/// claims are empty files under `claims/`, created exclusively and dated by their expiry. All
/// file work runs through `BlockingWork`, off the cooperative threads.
///
/// ```swift
/// let storage = FileAssetStorage(folder: "cities.sqlite.assets")
/// let writer = try await storage.makeAssetWriter()
/// ```
struct FileAssetStorage: AssetStorage {
    /// The folder of kept assets; the others are in its `pending`, `incoming` and `claims` folders.
    let folder: String

    var pendingFolder: String { folder + "/pending" }
    var incomingFolder: String { folder + "/incoming" }
    var claimsFolder: String { folder + "/claims" }

    func keptPath(_ asset: Asset) -> String { "\(folder)/\(asset.checksumHex)-\(asset.size)" }
    func pendingPath(_ asset: Asset) -> String { "\(pendingFolder)/\(asset.checksumHex)-\(asset.size)" }

    func makeAssetWriter() async throws(RecordStoreError) -> any AssetWriter {
        let (path, folders) = (incomingFolder + "/" + UUID().uuidString, [pendingFolder, incomingFolder])
        let handle = try await BlockingWork.run { () throws(RecordStoreError) -> FileHandle in
            try Self.attempt("start writing an asset") {
                for folder in folders { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
                }
                return handle
            }
        }
        return FileAssetWriter(storage: self, path: path, handle: handle)
    }

    func makeAssetReader(for asset: Asset) async throws(RecordStoreError) -> (any AssetReader)? {
        let paths = [keptPath(asset), pendingPath(asset)]
        return try await BlockingWork.run { () throws(RecordStoreError) -> FileAssetReader? in
            // A pending file renamed kept (or swept) between the two looks is found, or not, at its next place.
            for path in paths {
                if let handle = FileHandle(forReadingAtPath: path) { return FileAssetReader(handle: handle) }
            }
            return nil
        }
    }

    func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset] {
        let moves = assets.map { (asset: $0, kept: keptPath($0), waiting: pendingPath($0)) }
        return try await BlockingWork.run { () throws(RecordStoreError) -> [Asset] in
            let files = FileManager.default
            var missing: [Asset] = []
            for move in moves where !files.fileExists(atPath: move.kept) {
                // A rename that fails lost the file to a sweep (or another keeper, then it is kept).
                do {
                    try files.moveItem(atPath: move.waiting, toPath: move.kept)
                } catch {
                    if !files.fileExists(atPath: move.kept) { missing.append(move.asset) }
                }
            }
            return missing
        }
    }

    func claimAssetUpload(_ identifier: String, expires: Date) async throws(RecordStoreError) -> Bool {
        let (folder, path) = (claimsFolder, claimsFolder + "/" + identifier)
        return try await BlockingWork.run { () throws(RecordStoreError) -> Bool in
            let files = FileManager.default
            do {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
                // Exclusive creation (O_EXCL): of two processes claiming at once, one creates the file.
                try Data().write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
            } catch {
                if files.fileExists(atPath: path) { return false }
                throw .storage("could not record the use of upload \(identifier): \(error.localizedDescription)")
            }
            try Self.attempt("date the claim of upload \(identifier)") {
                try files.setAttributes([.modificationDate: expires], ofItemAtPath: path)
            }
            return true
        }
    }

    func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        let (pendingFolder, incomingFolder, claimsFolder) = (pendingFolder, incomingFolder, claimsFolder)
        return try await BlockingWork.run { () throws(RecordStoreError) -> Int in
            // Writes never committed (their process ended) and claims past their expiry.
            _ = Self.removeFiles(in: incomingFolder, modifiedBefore: date)
            _ = Self.removeFiles(in: claimsFolder, modifiedBefore: date)
            return Self.removeFiles(in: pendingFolder, modifiedBefore: date)
        }
    }

    /// Removes the files of a folder last modified before a date; how many.
    private static func removeFiles(in folder: String, modifiedBefore date: Date) -> Int {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for name in names {
            let path = folder + "/" + name
            guard let modified = (try? files.attributesOfItem(atPath: path))?[.modificationDate] as? Date, modified < date else { continue }
            if (try? files.removeItem(atPath: path)) != nil { removed += 1 }
        }
        return removed
    }

    /// Runs file work, its failure as the store's error naming what was being done.
    static func attempt<T>(_ what: String, _ work: () throws -> T) throws(RecordStoreError) -> T {
        do {
            return try work()
        } catch {
            throw .storage("could not \(what): \(error.localizedDescription)")
        }
    }
}

/// The SQLite engine keeps assets as files beside the store (``FileAssetStorage``).
extension SQLiteEngine: AssetStorage {
    /// The store's asset folder: `<store path>.assets`.
    var assetFiles: FileAssetStorage { FileAssetStorage(folder: pool.path + ".assets") }

    func makeAssetWriter() async throws(RecordStoreError) -> any AssetWriter {
        try await assetFiles.makeAssetWriter()
    }

    func makeAssetReader(for asset: Asset) async throws(RecordStoreError) -> (any AssetReader)? {
        try await assetFiles.makeAssetReader(for: asset)
    }

    func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset] {
        try await assetFiles.keepAssets(assets)
    }

    func claimAssetUpload(_ identifier: String, expires: Date) async throws(RecordStoreError) -> Bool {
        try await assetFiles.claimAssetUpload(identifier, expires: expires)
    }

    func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        try await assetFiles.removePendingAssets(uploadedBefore: date)
    }
}

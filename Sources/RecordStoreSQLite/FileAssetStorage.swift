import Foundation
@_spi(StorageEngine) import RecordStoreCore

/// Assets as files in a folder beside a SQLite store (`cities.sqlite.assets/`): a kept asset is
/// the file `<sha256 hex>-<size>`, a pending upload (no saved record references it yet) the
/// same name under `pending/`, dated by the file's modification time. Marking an upload kept is
/// one rename; files are written to a temporary name first and renamed, so a reader never sees
/// a partial file. All file work runs through `BlockingWork`, off the cooperative threads.
///
/// ```swift
/// let storage = FileAssetStorage(folder: "cities.sqlite.assets")
/// try await storage.putAsset(asset, bytes: data, pending: true, date: Date())
/// ```
struct FileAssetStorage: AssetStorage {
    /// The folder of kept assets; pending ones are in its `pending` folder.
    let folder: String

    private var pendingFolder: String { folder + "/pending" }

    private func keptPath(_ asset: Asset) -> String { "\(folder)/\(asset.checksumHex)-\(asset.size)" }
    private func pendingPath(_ asset: Asset) -> String { "\(pendingFolder)/\(asset.checksumHex)-\(asset.size)" }

    func putAsset(_ asset: Asset, bytes: Data, pending: Bool, date: Date) async throws(RecordStoreError) {
        let (kept, waiting, pendingFolder) = (keptPath(asset), pendingPath(asset), pendingFolder)
        try await BlockingWork.run { () throws(RecordStoreError) in
            let files = FileManager.default
            if files.fileExists(atPath: kept) { return }
            try Self.attempt("write the asset \(asset)") {
                try files.createDirectory(atPath: pendingFolder, withIntermediateDirectories: true)
                if pending {
                    try bytes.write(to: URL(fileURLWithPath: waiting), options: .atomic)
                    try files.setAttributes([.modificationDate: date], ofItemAtPath: waiting)
                } else {
                    try bytes.write(to: URL(fileURLWithPath: kept), options: .atomic)
                    if files.fileExists(atPath: waiting) { try? files.removeItem(atPath: waiting) }
                }
            }
        }
    }

    func assetBytes(_ asset: Asset) async throws(RecordStoreError) -> Data? {
        let paths = [keptPath(asset), pendingPath(asset)]
        return try await BlockingWork.run { () throws(RecordStoreError) -> Data? in
            for path in paths where FileManager.default.fileExists(atPath: path) {
                // Removed between the test and the read (a pending upload swept): look on.
                if let data = try? Data(contentsOf: URL(fileURLWithPath: path)) { return data }
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

    func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        let pendingFolder = pendingFolder
        return try await BlockingWork.run { () throws(RecordStoreError) -> Int in
            let files = FileManager.default
            guard let names = try? files.contentsOfDirectory(atPath: pendingFolder) else { return 0 }
            var removed = 0
            for name in names {
                let path = pendingFolder + "/" + name
                guard let modified = (try? files.attributesOfItem(atPath: path))?[.modificationDate] as? Date, modified < date else { continue }
                if (try? files.removeItem(atPath: path)) != nil { removed += 1 }
            }
            return removed
        }
    }

    /// Runs file work, its failure as the store's error naming what was being done.
    private static func attempt(_ what: String, _ work: () throws -> Void) throws(RecordStoreError) {
        do {
            try work()
        } catch {
            throw .storage("could not \(what): \(error.localizedDescription)")
        }
    }
}

/// The SQLite engine keeps assets as files beside the store (``FileAssetStorage``).
extension SQLiteEngine: AssetStorage {
    /// The store's asset folder: `<store path>.assets`.
    var assetFiles: FileAssetStorage { FileAssetStorage(folder: pool.path + ".assets") }

    func putAsset(_ asset: Asset, bytes: Data, pending: Bool, date: Date) async throws(RecordStoreError) {
        try await assetFiles.putAsset(asset, bytes: bytes, pending: pending, date: date)
    }

    func assetBytes(_ asset: Asset) async throws(RecordStoreError) -> Data? {
        try await assetFiles.assetBytes(asset)
    }

    func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset] {
        try await assetFiles.keepAssets(assets)
    }

    func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        try await assetFiles.removePendingAssets(uploadedBefore: date)
    }
}

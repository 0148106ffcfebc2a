import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore

extension SQLiteEngine: SiblingRemovingEngine {
    /// Erases the file of the sibling `name` (``openSibling(named:progress:)``) in place: GRDB's
    /// erase copies an empty database over it with SQLite's backup, in one write, so that the
    /// file, its write-ahead log and any connection still open on it stay consistent. A sibling
    /// never opened has no file, and nothing to erase.
    func removeSibling(named name: String) async throws(RecordStoreError) {
        let path = Self.siblingPath(of: self.path, named: name)
        guard FileManager.default.fileExists(atPath: path) else { return }
        try await BlockingWork.run { () throws(RecordStoreError) in
            do {
                var configuration = Configuration()
                configuration.busyMode = .timeout(30)
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                try queue.erase()
                try queue.close()
            } catch {
                throw Self.storeError(error)
            }
        }
    }
}

import Foundation
import PredicateLanguage
import RecordStore

/// The repository's datasets, read from its `Datasets/` folder (found from this source file, so
/// the benchmarks run from any directory), or from the folder named by `QUERY_DATASETS`.
enum Datasets {
    struct MissingDataset: Error, CustomStringConvertible {
        var path: String
        var description: String { "dataset not found at \(path); the repository ships it in Datasets/, or set QUERY_DATASETS" }
    }

    static var folder: URL {
        if let override = ProcessInfo.processInfo.environment["QUERY_DATASETS"] {
            return URL(fileURLWithPath: override)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Datasets")
    }

    /// The path of a dataset, checked to exist.
    static func path(_ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else { throw MissingDataset(path: path) }
        return path
    }

    /// Each line of a (gzipped) JSON-lines dataset as an object of values.
    static func jsonLines(_ name: String) throws -> [[String: Value]] {
        let reader = try CompressedFileReader(path: path(name))
        var objects: [[String: Value]] = []
        while let line = reader.nextLine() {
            if line.isEmpty { continue }
            if case .object(let fields) = try Value(jsonBytes: line) {
                objects.append(fields)
            }
        }
        return objects
    }

    /// The run's folder of benchmark databases (the store section's alone take 0.75 GB): removed when the run ends.
    private static let temporaryFolder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Datasets.temporaryFolder) }
        return folder
    }()

    /// A fresh temporary file path for a benchmark database, in a folder removed when the run ends.
    static func temporaryDatabase(_ name: String) -> String {
        let path = temporaryFolder.appendingPathComponent("\(name).sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return path
    }
}

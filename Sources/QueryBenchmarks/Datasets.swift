import Foundation
import PredicateLanguage

/// The shared datasets, read from `../shared/datasets` beside the package root
/// (or the folder named by `QUERY_DATASETS`).
enum Datasets {
    struct MissingDataset: Error, CustomStringConvertible {
        var path: String
        var description: String { "dataset not found at \(path); run from the package root or set QUERY_DATASETS" }
    }

    static var folder: URL {
        if let override = ProcessInfo.processInfo.environment["QUERY_DATASETS"] {
            return URL(fileURLWithPath: override)
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .deletingLastPathComponent().appendingPathComponent("shared/datasets")
    }

    /// The decompressed bytes of a `.gz` dataset.
    static func gunzipped(_ name: String) throws -> Data {
        let path = folder.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else { throw MissingDataset(path: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// Each line of a JSON-lines dataset as an object of values.
    static func jsonLines(_ name: String) throws -> [[String: Value]] {
        let data = try gunzipped(name)
        var objects: [[String: Value]] = []
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            if case .object(let fields) = try Value(jsonBytes: line) {
                objects.append(fields)
            }
        }
        return objects
    }
}

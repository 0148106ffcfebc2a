import Foundation
import TestSupport

/// Runs the built `query` executable in a child process and collects what it printed.
///
/// The waiting happens on a thread of its own (``ChildProcess``), never on one of the cooperative
/// pool's: tests that blocked the pool's threads on children stalled every other suite of the run,
/// as two server suites once timed out together.
struct CommandRunner {
    typealias Outcome = ChildProcess.Outcome

    /// The folder holding the built products (the test bundle sits beside `query`).
    static let productsFolder: URL = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        var folder = testBinary.deletingLastPathComponent()
        // On macOS the test bundle is a folder: .../debug/QueryPackageTests.xctest/Contents/MacOS/...
        while folder.pathComponents.count > 1, !FileManager.default.fileExists(atPath: folder.appendingPathComponent("query").path) {
            let parent = folder.deletingLastPathComponent()
            if parent == folder { break }
            folder = parent
        }
        return folder
    }()

    /// A fresh SQLite store in a new temporary folder (named after `purpose`) holding the JSON lines
    /// imported as records of `recordType` named by their `id`; returns its path.
    static func importedStore(_ purpose: String, recordType: String, jsonLines: [String]) async throws -> String {
        let folder = TestFolders.make(purpose)
        let file = folder.appendingPathComponent("records.jsonl")
        try Data((jsonLines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let database = folder.appendingPathComponent("store.sqlite").path
        let imported = try await run(["import", "--db", database, "--type", recordType, "--id", "id", file.path])
        guard imported.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: imported.standardError]) }
        return database
    }

    /// Runs `query` with these arguments, feeding `input` to its standard input.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) async throws -> Outcome {
        try await run(arguments, inputBytes: input.map { Data($0.utf8) }, environment: environment)
    }

    /// Runs `query` with these arguments, feeding raw bytes (which need not be UTF-8) to its standard input.
    static func run(_ arguments: [String], inputBytes input: Data?, environment: [String: String] = [:]) async throws -> Outcome {
        try await ChildProcess.run(productsFolder.appendingPathComponent("query"), arguments, environment: environment, input: input)
    }
}

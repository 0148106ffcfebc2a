import Foundation
import TestSupport

/// Runs the built `doc-examples` executable in a child process and collects what it printed.
enum ExampleRunner {
    /// The PostgreSQL server of the tests, or nil when none is configured.
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["QUERY_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether a missing server fails the tests (under CI) rather than leaving a document out.
    static var isUnderCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return !value.isEmpty && value != "false" && value != "0"
    }

    /// The package's root folder, two levels above this file.
    static let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding the built products (the test bundle sits beside `doc-examples`).
    static let productsFolder: URL = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        var folder = testBinary.deletingLastPathComponent()
        // On macOS the test bundle is a folder: .../debug/QueryPackageTests.xctest/Contents/MacOS/...
        while folder.pathComponents.count > 1, !FileManager.default.fileExists(atPath: folder.appendingPathComponent("doc-examples").path) {
            let parent = folder.deletingLastPathComponent()
            if parent == folder { break }
            folder = parent
        }
        return folder
    }()

    /// A new, empty temporary folder in which `Datasets` is the package's, as the examples,
    /// written to run from the package's root, expect.
    static func makeWorkingFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doc-examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("Datasets"), withDestinationURL: packageFolder.appendingPathComponent("Datasets"))
        return folder
    }

    /// Runs one document's program in `folder`.
    static func run(_ document: String, in folder: URL) async throws -> ChildProcess.Outcome {
        try await ChildProcess.run(productsFolder.appendingPathComponent("doc-examples"), [document], in: folder)
    }
}

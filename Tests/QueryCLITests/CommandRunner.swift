import Foundation
import TestSupport

/// Runs the built `query` executable in a child process and collects what it printed.
struct CommandRunner {
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

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
    static func importedStore(_ purpose: String, recordType: String, jsonLines: [String]) throws -> String {
        let folder = TestFolders.make(purpose)
        let file = folder.appendingPathComponent("records.jsonl")
        try Data((jsonLines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let database = folder.appendingPathComponent("store.sqlite").path
        let imported = try run(["import", "--db", database, "--type", recordType, "--id", "id", file.path])
        guard imported.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: imported.standardError]) }
        return database
    }

    /// Runs `query` with these arguments, feeding `input` to its standard input.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        try run(arguments, inputBytes: input.map { Data($0.utf8) }, environment: environment)
    }

    /// Runs `query` with these arguments, feeding raw bytes (which need not be UTF-8) to its standard input.
    static func run(_ arguments: [String], inputBytes input: Data?, environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = productsFolder.appendingPathComponent("query")
        process.arguments = arguments
        var childEnvironment = ProcessInfo.processInfo.environment
        for (key, value) in environment { childEnvironment[key] = value }
        process.environment = childEnvironment
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = inputPipe
        try process.run()
        // Write the input from another thread: a child that answers while it reads would
        // otherwise block on a full output pipe while this thread blocks on a full input pipe.
        let inputWriter = Thread {
            if let input { inputPipe.fileHandleForWriting.write(input) }
            try? inputPipe.fileHandleForWriting.close()
        }
        inputWriter.start()
        // Read both pipes fully before waiting, so a chatty child cannot block on a full pipe.
        let errorData = ThreadSafeBox<Data>(Data())
        let errorReader = Thread {
            errorData.value = errorPipe.fileHandleForReading.readDataToEndOfFile()
        }
        errorReader.start()
        let outputData = outputPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { Thread.sleep(forTimeInterval: 0.001) }
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.value, as: UTF8.self))
    }
}

/// A value written by one thread and read by another once it is set.
final class ThreadSafeBox<Wrapped>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Wrapped
    private var set = false

    init(_ value: Wrapped) { stored = value }

    var value: Wrapped {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue; set = true } }
    }

    var isSet: Bool { lock.withLock { set } }
}

import Foundation
import PredicateLanguage

/// A `query import --progress jsonl` running in a child process, whose committed-batch lines
/// are read from its standard error as they arrive, so the test can kill it mid-import.
final class ImportChild: @unchecked Sendable {
    /// One `--progress jsonl` line: records committed so far and the last record's name.
    struct Committed: Equatable {
        var count: Int
        var lastRecordName: String
    }

    private let process = Process()
    private let lock = NSLock()
    private var committedLines: [Committed] = []
    private var otherLines: [String] = []
    private var finishedReading = false

    /// Starts `query import` with these arguments plus `--progress jsonl`.
    init(arguments: [String]) throws {
        process.executableURL = CommandRunner.productsFolder.appendingPathComponent("query")
        process.arguments = ["import"] + arguments + ["--progress", "jsonl"]
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let errorPipe = Pipe()
        process.standardError = errorPipe
        try process.run()
        let reader = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = errorPipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = pending[pending.startIndex..<newline]
                    pending = Data(pending[(newline + 1)...])
                    record(line: Data(line))
                }
            }
            if !pending.isEmpty { record(line: pending) }
            lock.withLock { finishedReading = true }
        }
        reader.start()
    }

    private func record(line: Data) {
        let text = String(decoding: line, as: UTF8.self)
        if case .object(let fields)? = try? Value(jsonBytes: Array(line)),
           case .int(let count)? = fields["committed"], case .string(let name)? = fields["lastRecordName"] {
            lock.withLock { committedLines.append(Committed(count: Int(count), lastRecordName: name)) }
        } else {
            lock.withLock { otherLines.append(text) }
        }
    }

    /// The committed-batch lines read so far.
    var committed: [Committed] { lock.withLock { committedLines } }

    /// Lines of standard error that are not committed-batch lines (errors, the final summary…).
    var unexpectedLines: [String] { lock.withLock { otherLines } }

    /// Waits until `batches` batches were reported or the child ended; false after `limit` seconds.
    func waitForCommittedBatches(_ batches: Int, limit: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline {
            if committed.count >= batches || !process.isRunning { return true }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return false
    }

    /// Sends SIGKILL, waits for the child to die and for its last lines to be read.
    func kill() {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
        waitUntilExit()
    }

    /// Waits for the child to exit and its standard error to be read to the end.
    func waitUntilExit() {
        process.waitUntilExit()
        while !lock.withLock({ finishedReading }) { Thread.sleep(forTimeInterval: 0.001) }
    }

    /// The exit status (after the child ended).
    var terminationStatus: Int32 { process.terminationStatus }
    /// Whether the child was killed by a signal (after it ended).
    var wasKilled: Bool { process.terminationReason == .uncaughtSignal }
}

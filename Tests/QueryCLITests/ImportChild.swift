import Foundation
import PredicateLanguage
import TestSupport

/// A `query import --progress jsonl` running in a child process, whose committed-batch lines
/// are read from its standard error as they arrive, so the test can kill it mid-import.
final class ImportChild: @unchecked Sendable {
    /// One `--progress jsonl` line: records committed so far and the last record's name.
    struct Committed: Equatable {
        var count: Int
        var lastRecordName: String
    }

    private let child: SpawnedChild
    private let lock = NSLock()
    private var committedLines: [Committed] = []
    private var otherLines: [String] = []
    private var finishedReading = false
    /// Waiters woken after each line read and at the end of the output, to check again.
    private var waiters: [CheckedContinuation<Bool, Never>] = []

    /// Starts `query import` with these arguments plus `--progress jsonl`.
    init(arguments: [String]) throws {
        child = try SpawnedChild(
            CommandRunner.productsFolder.appendingPathComponent("query"), ["import"] + arguments + ["--progress", "jsonl"],
            input: .null, output: .null, error: .pipe)
        let errors = child.error
        let reader = Thread { [self] in
            var pending = Data()
            while let errors {
                let chunk = errors.availableData
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
            wakeWaiters()
        }
        reader.start()
    }

    private func wakeWaiters() {
        let woken = lock.withLock {
            defer { waiters = [] }
            return waiters
        }
        for waiter in woken { waiter.resume(returning: false) }
    }

    /// Returns once `condition` (read under the lock) holds: it is checked after every line read.
    private func wait(until condition: @escaping () -> Bool) async {
        while true {
            let holds = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let holdsNow = lock.withLock {
                    if condition() { return true }
                    waiters.append(continuation)
                    return false
                }
                if holdsNow { continuation.resume(returning: true) }
            }
            if holds { return }
        }
    }

    private func record(line: Data) {
        let text = String(decoding: line, as: UTF8.self)
        if case .object(let fields)? = try? Value(jsonBytes: Array(line)),
           case .int(let count)? = fields["committed"], case .string(let name)? = fields["lastRecordName"] {
            lock.withLock { committedLines.append(Committed(count: Int(count), lastRecordName: name)) }
        } else {
            lock.withLock { otherLines.append(text) }
        }
        wakeWaiters()
    }

    /// The committed-batch lines read so far.
    var committed: [Committed] { lock.withLock { committedLines } }

    /// Lines of standard error that are not committed-batch lines (errors, the final summary…).
    var unexpectedLines: [String] { lock.withLock { otherLines } }

    /// Waits until `batches` batches were reported or the child ended, then `fraction` of the
    /// mean batch time more, and sends SIGKILL; all of it on a thread of its own, so that the
    /// moment of the kill does not depend on when the cooperative pool runs the test. False when
    /// no progress came within `limit` seconds (the child is killed all the same).
    func kill(afterBatches batches: Int, fractionOfBatch fraction: Double, limit: TimeInterval) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread { [self] in
                let started = Date()
                let deadline = started.addingTimeInterval(limit)
                var progressed = false
                while Date() < deadline {
                    if committed.count >= batches || child.hasExited {
                        progressed = true
                        break
                    }
                    Thread.sleep(forTimeInterval: 0.002)
                }
                let batchTime = batches == 0 ? 0.4 : Date().timeIntervalSince(started) / Double(max(1, committed.count))
                Thread.sleep(forTimeInterval: fraction * batchTime)
                child.signal(SIGKILL)
                continuation.resume(returning: progressed)
            }.start()
        }
    }

    /// Waits for the child's standard error to be read to its end, then reaps the child on a
    /// thread of its own (never one of the cooperative pool's).
    func waitUntilExit() async {
        await wait { [unowned self] in finishedReading }
        await child.exit()
    }

    /// The exit status (after the child ended).
    var terminationStatus: Int32 { child.ending?.status ?? -1 }
    /// Whether the child was killed by a signal (after it ended).
    var wasKilled: Bool { if case .signaled? = child.ending { true } else { false } }
}

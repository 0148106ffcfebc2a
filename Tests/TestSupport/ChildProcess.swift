import Foundation

/// A child process run to its end on a thread of its own.
///
/// Waiting for a child never holds a thread of the cooperative pool. The pool has as many threads
/// as the machine has cores (two on CI), and a test that blocked one would starve every other
/// suite of the run, including the in-process servers the children talk to.
///
/// ```swift
/// let outcome = try await ChildProcess.run(URL(fileURLWithPath: "/bin/echo"), ["hello"])
/// // outcome.standardOutput == "hello\n"
/// ```
public enum ChildProcess {
    /// What a child printed and how it ended.
    public struct Outcome: Sendable {
        /// The exit status (or the signal's number, when a signal ended it).
        public var status: Int32
        /// Everything written to standard output; standard error too when the run merged them.
        public var standardOutput: String
        /// Everything written to standard error (empty when the run merged it into the output).
        public var standardError: String
    }

    /// Runs `executable` with `arguments` to its end.
    ///
    /// - Parameters:
    ///   - environment: variables set on top of this process's environment.
    ///   - input: bytes fed to standard input, which is then closed (none: an empty input).
    ///   - directory: the working folder (none: this process's).
    ///   - mergingErrors: writes standard error into the same pipe as standard output, in order.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil,
        in directory: URL? = nil, mergingErrors: Bool = false
    ) async throws -> Outcome {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Outcome, any Error>) in
            let waiter = Thread {
                continuation.resume(with: Result {
                    try runBlocking(executable, arguments, environment: environment, input: input, in: directory, mergingErrors: mergingErrors)
                })
            }
            waiter.start()
        }
    }

    /// Runs `executable` (a path) with `arguments` to its end, its standard error merged into
    /// its output: the exit status and everything it printed.
    ///
    /// ```swift
    /// let (status, output) = try await ChildProcess.run("/usr/bin/curl", ["-sS", url])
    /// ```
    public static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let outcome = try await run(URL(fileURLWithPath: executable), arguments, mergingErrors: true)
        return (outcome.status, outcome.standardOutput)
    }

    /// Starts the child and blocks the calling thread, one of this type's own, until it has exited
    /// and both pipes are drained.
    private static func runBlocking(
        _ executable: URL, _ arguments: [String], environment: [String: String], input: Data?, in directory: URL?, mergingErrors: Bool
    ) throws -> Outcome {
        let child = try SpawnedChild(
            executable, arguments, environment: environment, in: directory,
            input: .pipe, output: .pipe, error: mergingErrors ? .output : .pipe)
        // Write the input from another thread: a child that answers while it reads would
        // otherwise block on a full output pipe while this thread blocks on a full input pipe.
        let inputWriter = Thread {
            if let input { child.input?.write(input) }
            try? child.input?.close()
        }
        inputWriter.start()
        // Read both pipes fully before waiting, so a chatty child cannot block on a full pipe.
        let errorData = DrainedPipe()
        if let error = child.error {
            Thread { errorData.finish(error.readDataToEndOfFile()) }.start()
        } else {
            errorData.finish(Data())
        }
        let outputData = child.output?.readDataToEndOfFile() ?? Data()
        let ending = child.waitForExit()
        return Outcome(
            status: ending.status,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.waitForBytes(), as: UTF8.self))
    }
}

/// The bytes one thread reads from a pipe to its end, and another waits for.
private final class DrainedPipe: @unchecked Sendable {
    private let condition = NSCondition()
    private var bytes: Data?

    func finish(_ value: Data) {
        condition.withLock {
            bytes = value
            condition.signal()
        }
    }

    func waitForBytes() -> Data {
        condition.withLock {
            while bytes == nil { condition.wait() }
            return bytes ?? Data()
        }
    }
}

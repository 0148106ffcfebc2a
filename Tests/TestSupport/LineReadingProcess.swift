import Foundation

/// A child process whose output (standard output or standard error) is read line by line as it
/// arrives, on a thread of its own, so that a test can wait for a line (`listening on …`) without
/// sleeping and without holding a thread of the cooperative pool.
///
/// ```swift
/// let server = try LineReadingProcess(query, ["serve", "--port", "0"], reading: .standardError)
/// let listening = await server.line(containing: "listening on")
/// server.stop()
/// ```
public final class LineReadingProcess: @unchecked Sendable {
    /// The stream whose lines are read.
    public enum Stream: Sendable {
        case standardOutput
        case standardError
    }

    private let child: SpawnedChild
    private let lock = NSLock()
    private var lines: [String] = []
    private var ended = false
    private var searchedUpTo = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Starts `executable` with `arguments` (and `environment` over this process's). Its standard
    /// input stays open until ``stop()``; the stream not read goes to /dev/null.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], reading stream: Stream) throws {
        child = try SpawnedChild(
            executable, arguments, environment: environment, input: .pipe,
            output: stream == .standardOutput ? .pipe : .null, error: stream == .standardError ? .pipe : .null)
        guard let output = child.output ?? child.error else { throw OutputEnded(output: "") }
        Thread { [self] in
            var pending = Data()
            while true {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    lock.withLock { lines.append(line) }
                    wake()
                }
            }
            lock.withLock { ended = true }
            wake()
        }.start()
    }

    private func wake() {
        let woken = lock.withLock {
            defer { waiters = [] }
            return waiters
        }
        for waiter in woken { waiter.resume() }
    }

    /// Every line read so far, joined by newlines.
    public var output: String { lock.withLock { lines.joined(separator: "\n") } }

    /// The first line not yet searched that contains `text`, waiting for it; nil once the output
    /// ended without one (the caller's time limit bounds the wait).
    public func line(containing text: String) async -> String? {
        await line { $0.contains(text) }
    }

    /// The first line not yet searched for which `matches` holds, waiting for it; nil once the
    /// output ended without one.
    public func line(where matches: @escaping (String) -> Bool) async -> String? {
        while true {
            let (found, over): (String?, Bool) = lock.withLock {
                while searchedUpTo < lines.count {
                    defer { searchedUpTo += 1 }
                    if matches(lines[searchedUpTo]) { return (lines[searchedUpTo], false) }
                }
                return (nil, ended)
            }
            if let found { return found }
            if over { return nil }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = lock.withLock {
                    if searchedUpTo < lines.count || ended { return true }
                    waiters.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    /// The next `count` lines not yet searched, waiting for them; throws ``OutputEnded`` when the
    /// output ends first.
    public func lines(_ count: Int) async throws(OutputEnded) -> [String] {
        var taken: [String] = []
        while taken.count < count {
            guard let line = await line(where: { _ in true }) else { throw OutputEnded(output: output) }
            taken.append(line)
        }
        return taken
    }

    /// The child's output ended before the lines a test waited for.
    public struct OutputEnded: Error, CustomStringConvertible {
        /// Everything the child printed.
        public let output: String
        public var description: String { "the child's output ended; it printed:\n\(output)" }
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) {
        child.signal(signal)
    }

    /// Closes the child's standard input and ends it (SIGTERM, a graceful shutdown for a server)
    /// without waiting for it.
    public func stop() {
        try? child.input?.close()
        child.terminate()
    }
}

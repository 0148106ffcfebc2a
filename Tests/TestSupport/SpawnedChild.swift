import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its standard streams piped, sent to /dev/null, or
/// inherited, and every other descriptor of this process closed in the child.
///
/// The tests do not use Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` and
/// copies each entry's whole 256-byte name, reading past the end of the directory buffer. With
/// the two thousand descriptors a parallel test run holds open, that read has crashed the test
/// process (SIGSEGV in `findMaximumOpenFD`). Here the child closes what it inherits with one
/// `posix_spawn_file_actions_addclosefrom_np` action, however many descriptors there are.
///
/// Every blocking call (``waitForExit()``, reading a pipe) belongs on a thread of its own, never
/// on one of the cooperative pool's.
///
/// ```swift
/// let child = try SpawnedChild(URL(fileURLWithPath: "/bin/echo"), ["hello"], output: .pipe)
/// let printed = child.output?.readDataToEndOfFile()   // "hello\n"
/// let status = child.waitForExit()                    // .exited(0)
/// ```
public final class SpawnedChild: Sendable {
    /// What one of the child's standard streams is connected to.
    public enum Stream: Sendable {
        /// A pipe whose other end this process holds (``input``, ``output`` or ``error``).
        case pipe
        /// /dev/null.
        case null
        /// This process's own stream.
        case inherit
        /// For standard error only: the same pipe or file as standard output, so both read in order.
        case output
    }

    /// How a child ended.
    public enum Ending: Sendable, Equatable {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal (this number) ended it.
        case signaled(Int32)

        /// The exit status, or the signal's number when a signal ended it (as `Process` reported).
        public var status: Int32 {
            switch self {
            case .exited(let status), .signaled(let status): status
            }
        }
    }

    /// The child's process identifier.
    public let processIdentifier: pid_t
    /// The writing end of the child's standard input, when it is ``Stream/pipe``.
    public let input: FileHandle?
    /// The reading end of the child's standard output, when it is ``Stream/pipe``.
    public let output: FileHandle?
    /// The reading end of the child's standard error, when it is ``Stream/pipe``.
    public let error: FileHandle?
    private let reaped = LockedEnding()

    /// Held while a child is started, so that the pipes one test creates are never inherited by
    /// another test's child before they are marked close-on-exec.
    private static let launchLock = NSLock()

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: variables set on top of this process's environment.
    ///   - directory: the working folder (none: this process's).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        input inputStream: Stream = .null, output outputStream: Stream = .null, error errorStream: Stream = .inherit
    ) throws(SpawnError) {
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        Self.launchLock.lock()
        defer { Self.launchLock.unlock() }
        let launched = try Self.spawn(
            executable.path, [executable.path] + arguments, variables, directory?.path,
            streams: [inputStream, outputStream, errorStream])
        processIdentifier = launched.0
        let parentEnds = launched.1.map { $0.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) } }
        input = parentEnds[0]
        output = parentEnds[1]
        error = parentEnds[2]
    }

    /// Blocks the calling thread (one of the caller's own) until the child has exited, and reaps it.
    @discardableResult
    public func waitForExit() -> Ending {
        // Wait without reaping, and without the lock, so that ``signal(_:)`` stays free meanwhile;
        // then reap under the lock. A child that exited but is not reaped keeps its identifier.
        var information = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &information, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        return ending ?? .exited(-1)
    }

    /// Waits for the child's exit on a thread of its own.
    @discardableResult
    public func exit() async -> Ending {
        await withCheckedContinuation { continuation in
            Thread { [self] in continuation.resume(returning: waitForExit()) }.start()
        }
    }

    /// Whether the child has exited (reaping it when it has), without blocking.
    public var hasExited: Bool { ending != nil }

    /// How the child ended, reaping it if it exited and was not reaped yet; nil while it runs.
    public var ending: Ending? {
        reaped.withLock { known in
            if let ended = known.value { return ended }
            var status: Int32 = 0
            guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return nil }
            // The layout of `wait` statuses on Linux: the low seven bits name the ending signal, or
            // are zero when the child exited, its status in the next byte.
            let signal = status & 0x7F
            let ended: Ending = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
            known.value = ended
            return ended
        }
    }

    /// Sends SIGTERM and reaps the child on a thread of its own once it exits, without waiting.
    public func terminate() {
        signal(SIGTERM)
        Thread { [self] in waitForExit() }.start()
    }

    /// Sends `signal` to the child, unless it has already been reaped (its identifier may then
    /// name another process).
    public func signal(_ signal: Int32) {
        reaped.withLock { known in
            if known.value == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Starts the child: pipes for `.pipe` streams, close-on-exec in this process; the returned
    /// descriptors are this process's ends, by stream.
    private static func spawn(
        _ path: String, _ arguments: [String], _ environment: [String], _ directory: String?, streams: [Stream]
    ) throws(SpawnError) -> (pid_t, [Int32?]) {
        guard let addCloseFrom = LibraryFunctions.addCloseFrom, let addChangeDirectory = LibraryFunctions.addChangeDirectory else {
            throw .missingFunction(executable: path)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32?] = [nil, nil, nil]
        var childEnds: [Int32] = []
        defer { for descriptor in childEnds { close(descriptor) } }
        for (stream, kind) in streams.enumerated() {
            let target = Int32(stream)
            switch kind {
            case .inherit:
                continue
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", stream == 0 ? O_RDONLY : O_WRONLY, 0)
            case .output:
                posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, target)
            case .pipe:
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else {
                    for descriptor in parentEnds.compactMap({ $0 }) { close(descriptor) }
                    throw .system(call: "pipe", errno: errno, executable: path)
                }
                for descriptor in ends { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
                // Standard input: the child reads end 0 and this process writes end 1; the
                // other streams the other way round.
                let (childEnd, parentEnd) = stream == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                childEnds.append(childEnd)
                parentEnds[stream] = parentEnd
                posix_spawn_file_actions_adddup2(&actions, childEnd, target)
            }
        }
        if let directory { _ = addChangeDirectory(&actions, directory) }
        // After the standard streams are in place, every other descriptor is closed in the child.
        _ = addCloseFrom(&actions, 3)
        var processIdentifier: pid_t = 0
        let status = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                posix_spawn(&processIdentifier, path, &actions, nil, argv, envp)
            }
        }
        guard status == 0 else {
            for descriptor in parentEnds.compactMap({ $0 }) { close(descriptor) }
            throw .system(call: "posix_spawn", errno: status, executable: path)
        }
        return (processIdentifier, parentEnds)
    }
}

/// A child could not be started.
public enum SpawnError: Error, CustomStringConvertible {
    /// A system call failed.
    case system(call: String, errno: Int32, executable: String)
    /// The C library lacks `posix_spawn_file_actions_addclosefrom_np` or `…_addchdir_np`
    /// (glibc before 2.34).
    case missingFunction(executable: String)

    public var description: String {
        switch self {
        case .system(let call, let code, let executable):
            "cannot start \(executable): \(call) failed: \(String(cString: strerror(code)))"
        case .missingFunction(let executable):
            "cannot start \(executable): the C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later has)"
        }
    }
}

/// The child's ending once it was reaped, under a lock: reaping twice would wait for another
/// process that reused the identifier.
private final class LockedEnding: @unchecked Sendable {
    final class Box { var value: SpawnedChild.Ending? }
    private let lock = NSLock()
    private let box = Box()

    func withLock<T>(_ body: (Box) -> T) -> T {
        lock.withLock { body(box) }
    }
}

/// glibc's `posix_spawn` file actions that its Swift module does not import (they are GNU
/// extensions), looked up by name.
private enum LibraryFunctions {
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let addCloseFrom: AddCloseFrom? = function(named: "posix_spawn_file_actions_addclosefrom_np")
    static let addChangeDirectory: AddChangeDirectory? = function(named: "posix_spawn_file_actions_addchdir_np")

    private static func function<T>(named name: String) -> T? {
        // RTLD_DEFAULT, the null handle: search every loaded library.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: T.self)
    }
}

/// Calls `body` with `strings` as a null-terminated array of C strings.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}

import Foundation

/// `$PAGER` (`less` when unset) for a table printed on a terminal: `query find` writes into
/// the pager's input as records are read, and waits for the pager to end. Nothing is paged
/// when standard output is not a terminal, when `PAGER` is empty or `cat`, or when no pager
/// can be started. `LESS` defaults to `FRX`: output that fits the screen is printed as is.
///
/// ```swift
/// let pager = Pager.start()
/// let output = pager?.output ?? .standardOutput()
/// output.writeLine("recordName  name")
/// await pager?.finish()
/// ```
final class Pager: @unchecked Sendable {
    /// Writes into the pager's input.
    let output: BufferedOutput
    private let processID: pid_t

    private init(output: BufferedOutput, processID: pid_t) {
        self.output = output
        self.processID = processID
    }

    /// Starts the pager, or answers nil when output should go straight to standard output.
    static func start(environment: [String: String] = ProcessInfo.processInfo.environment) -> Pager? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        let command: String
        if let configured = environment["PAGER"] {
            let trimmed = configured.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed != "cat" else { return nil }
            command = trimmed
        } else {
            guard let less = executable(named: "less", path: environment["PATH"] ?? "/usr/bin:/bin") else { return nil }
            command = less
        }
        if environment["LESS"] == nil { setenv("LESS", "FRX", 0) }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        var processID: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let status = posix_spawn(&processID, "/bin/sh", &actions, nil, cArguments, environ)
        close(readEnd)
        guard status == 0 else {
            close(writeEnd)
            return nil
        }
        return Pager(output: BufferedOutput(fileDescriptor: writeEnd), processID: processID)
    }

    /// Flushes the output, closes the pager's input and waits for the user to leave the pager.
    func finish() async {
        output.flush()
        close(output.fileDescriptor)
        let processID = self.processID
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // waitpid blocks: it runs on a thread of its own, not on the cooperative pool.
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(processID, &status, 0) < 0, errno == EINTR {}
                continuation.resume()
            }
        }
    }

    /// The path of an executable found on `path` (colon-separated folders).
    private static func executable(named name: String, path: String) -> String? {
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

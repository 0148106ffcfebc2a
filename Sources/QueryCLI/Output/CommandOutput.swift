import Foundation

/// Writing to standard output and standard error.
enum CommandOutput {
    /// Writes a line to standard error.
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Whether standard error is a terminal (for progress bars).
    static var standardErrorIsTerminal: Bool {
        isatty(STDERR_FILENO) != 0
    }
}

import Foundation

/// Standard output (or a pager's input), written in blocks of 64 KiB with `write(2)`.
///
/// Records are written as they are read, so memory holds one block of text, not the whole
/// output. When the reader goes away (`query find … | head`, or a pager the user quit), a write
/// fails with `EPIPE` and every later write is dropped: the command ends normally instead of
/// dying of `SIGPIPE` (which `QueryMain` ignores).
///
/// ```swift
/// let output = BufferedOutput(fileDescriptor: STDOUT_FILENO)
/// output.writeLine("{\"recordName\":\"2988507\"}")
/// output.flush()
/// ```
final class BufferedOutput {
    /// The file descriptor written to.
    let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    /// Whether the reader has gone away (writes are then dropped).
    private(set) var isClosed = false

    private static let blockSize = 64 * 1024

    /// Writes to a file descriptor the caller keeps open.
    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(Self.blockSize)
    }

    /// Standard output.
    static func standardOutput() -> BufferedOutput {
        BufferedOutput(fileDescriptor: STDOUT_FILENO)
    }

    /// Appends text; a full block is written out.
    func write(_ text: String) {
        guard !isClosed else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.blockSize { flush() }
    }

    /// Appends a line of text and its newline.
    func writeLine(_ text: String) {
        write(text)
        write("\n")
    }

    /// Writes out what is buffered.
    func flush() {
        guard !isClosed, !buffer.isEmpty else {
            buffer.removeAll(keepingCapacity: true)
            return
        }
        var written = 0
        buffer.withUnsafeBytes { bytes in
            while written < bytes.count {
                let result = Foundation.write(fileDescriptor, bytes.baseAddress! + written, bytes.count - written)
                if result > 0 {
                    written += result
                } else if result < 0, errno == EINTR {
                    continue
                } else {
                    // EPIPE (the reader is gone) or another failure: nothing more can be shown.
                    isClosed = true
                    return
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        flush()
    }
}

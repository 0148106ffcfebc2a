import Foundation

/// Reads a file handle line by line (LF or CRLF), in chunks, without loading it whole.
struct LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var reachedEnd = false
    /// How many lines have been returned so far (the number of the last line returned).
    private(set) var lineNumber = 0

    init(handle: FileHandle) {
        self.handle = handle
    }

    /// The next line without its terminator, or nil at the end of the input.
    mutating func nextLine() -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = buffer[start..<end]
                start = newline + 1
                lineNumber += 1
                return line
            }
            if reachedEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                lineNumber += 1
                return line
            }
            // Drop what was consumed, then read more.
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let chunk = handle.readData(ofLength: 256 * 1024)
            if chunk.isEmpty {
                reachedEnd = true
            } else {
                buffer.append(contentsOf: chunk)
            }
        }
    }
}

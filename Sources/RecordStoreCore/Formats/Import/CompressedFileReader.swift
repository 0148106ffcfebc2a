import CZlib
import Foundation

/// Reads a file line by line through zlib, so plain and gzip-compressed files read the same way.
///
/// ```swift
/// let reader = try CompressedFileReader(path: "cities15000.jsonl.gz")
/// while let line = reader.nextLine() {
///     let city = try Value(jsonBytes: line)
/// }
/// ```
public final class CompressedFileReader {
    private let file: gzFile
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var finished = false
    /// The size of the file on disk, for progress.
    public let fileSize: Int64

    /// Opens a file (plain or `.gz`).
    public init(path: String) throws(RecordStoreError) {
        guard let file = gzopen(path, "rb") else {
            throw .malformedInput(file: path, line: 0, message: "cannot open the file")
        }
        self.file = file
        gzbuffer(file, 1 << 17)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        fileSize = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }

    deinit {
        gzclose(file)
    }

    /// How many bytes of the file on disk were read so far.
    public var bytesRead: Int64 {
        Int64(gzoffset(file))
    }

    /// The next line without its line break, or nil at the end.
    public func nextLine() -> [UInt8]? {
        while true {
            if let newline = buffer[bufferStart...].firstIndex(of: 0x0A) {
                var line = Array(buffer[bufferStart..<newline])
                bufferStart = newline + 1
                if line.last == 0x0D { line.removeLast() }
                return line
            }
            if finished {
                guard bufferStart < buffer.count else { return nil }
                let line = Array(buffer[bufferStart...])
                bufferStart = buffer.count
                return line
            }
            if bufferStart > 0 {
                buffer.removeFirst(bufferStart)
                bufferStart = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
            if count <= 0 {
                finished = true
            } else {
                buffer.append(contentsOf: chunk[0..<Int(count)])
            }
        }
    }

    /// The rest of the file.
    public func readAll() -> [UInt8] {
        var all: [UInt8] = []
        while let line = nextLine() {
            all.append(contentsOf: line)
            all.append(0x0A)
        }
        return all
    }
}

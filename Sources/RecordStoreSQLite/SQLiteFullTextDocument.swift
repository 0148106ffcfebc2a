import PredicateLanguage

/// The full-text document of a row, written as its text is read: the tokens of its searchable
/// strings (``FullTextTokenizer``), in order, separated by single spaces. An ASCII string's
/// tokens go straight into the document's bytes, with no array of token strings in between (the
/// tokens of most rows of an import); any other string is tokenized by ``FullTextTokenizer``.
/// Either way the document is the one ``FullTextTokenizer/tokens(_:)`` joined with spaces gives.
///
/// ```swift
/// var document = SQLiteFullTextDocument()
/// document.append("The Café at the END")
/// document.append("Paris")
/// document.text   // "cafe end paris"
/// ```
struct SQLiteFullTextDocument {
    private var bytes: [UInt8] = []

    /// The document so far; nil while it has no token.
    var text: String? { bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }

    /// Appends the tokens of a string.
    mutating func append(_ string: String) {
        if appendASCII(string) { return }
        for token in FullTextTokenizer.tokens(string) {
            if !bytes.isEmpty { bytes.append(0x20) }
            bytes += token.utf8
        }
    }

    /// Appends the tokens of an all-ASCII string and returns true; for any other string, leaves
    /// the document as it was and returns false. In ASCII the tokens are the runs of letters and
    /// digits, in lower case (as ``FullTextTokenizer`` finds them), less the stop words.
    private mutating func appendASCII(_ string: String) -> Bool {
        let start = bytes.count
        // Where the current token's separator (or, first in the document, the token) begins.
        var tokenMark = -1
        var tokenStart = 0
        for byte in string.utf8 {
            guard byte < 0x80 else {
                bytes.removeSubrange(start...)
                return false
            }
            let lowered: UInt8
            if byte &- 0x30 < 10 {
                lowered = byte
            } else if (byte | 0x20) &- 0x61 < 26 {
                lowered = byte | 0x20
            } else {
                if tokenMark >= 0 { endToken(mark: tokenMark, start: tokenStart) }
                tokenMark = -1
                continue
            }
            if tokenMark < 0 {
                tokenMark = bytes.count
                if !bytes.isEmpty { bytes.append(0x20) }
                tokenStart = bytes.count
            }
            bytes.append(lowered)
        }
        if tokenMark >= 0 { endToken(mark: tokenMark, start: tokenStart) }
        return true
    }

    /// Ends the token that starts at byte `start`: a stop word is taken out again, with its
    /// separator (from `mark` on).
    private mutating func endToken(mark: Int, start: Int) {
        let length = bytes.count - start
        guard length <= Self.longestStopWord else { return }
        var key: UInt64 = 0
        for index in start..<bytes.count { key = key << 8 | UInt64(bytes[index]) }
        if Self.stopWordKeys.contains(key) { bytes.removeSubrange(mark...) }
    }

    /// The length in bytes of the longest stop word.
    private static let longestStopWord = FullTextTokenizer.stopWords.map(\.utf8.count).max() ?? 0

    /// The stop words as integers, their bytes in order (each is at most 8 bytes; the keys of
    /// different words of at most 8 nonzero bytes differ).
    private static let stopWordKeys: Set<UInt64> = Set(FullTextTokenizer.stopWords.map { word in
        word.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    })
}

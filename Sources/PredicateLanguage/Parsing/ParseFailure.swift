/// A syntax error found by the lexer or the parser, located by byte offset.
///
/// The byte offset is converted to a character offset only when the failure
/// becomes a public ``SyntaxError``, so that the fast path never counts characters.
struct ParseFailure: Error {
    /// What was expected ("an expression", "')'", ...).
    var expected: String
    /// What was found ("'AND'", "the end of the input", ...).
    var found: String
    /// The offset of the offending text in UTF-8 bytes.
    var byteOffset: Int

    /// The public error, with the offset converted to characters.
    func syntaxError(in source: String) -> SyntaxError {
        SyntaxError(
            expected: expected, found: found,
            offset: ParseFailure.characterOffset(ofByte: byteOffset, in: source),
            source: source)
    }

    /// The index, in characters, of the character holding the byte at `byteOffset`
    /// (the character count when the offset is at or past the end).
    static func characterOffset(ofByte byteOffset: Int, in source: String) -> Int {
        var characters = 0
        var bytes = 0
        for character in source {
            let length = character.utf8.count
            if bytes + length > byteOffset { return characters }
            bytes += length
            characters += 1
        }
        return characters
    }
}

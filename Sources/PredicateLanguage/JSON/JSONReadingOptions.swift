/// What the JSON reader (`JSONReader`) accepts beyond the grammar: how deep arrays and objects
/// may nest, and what becomes of bytes that are not UTF-8 inside a string.
///
/// ```swift
/// let options = JSONReadingOptions(maximumDepth: 256, invalidUTF8: .refuse)
/// ```
package struct JSONReadingOptions: Sendable {
    /// What a string that is not valid UTF-8 becomes.
    package enum InvalidUTF8: Sendable {
        /// An error (requests over the wire).
        case refuse
        /// The string with U+FFFD in place of each bad sequence (files on disk, as
        /// `String(decoding:as:)` reads them).
        case repair
    }

    /// The deepest nesting of arrays and objects accepted (deeper is an error, never a crash).
    package var maximumDepth: Int
    /// What a string that is not valid UTF-8 becomes.
    package var invalidUTF8: InvalidUTF8

    package init(maximumDepth: Int, invalidUTF8: InvalidUTF8) {
        self.maximumDepth = maximumDepth
        self.invalidUTF8 = invalidUTF8
    }
}

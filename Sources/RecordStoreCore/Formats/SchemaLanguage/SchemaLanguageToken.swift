/// A token of the schema language, with where it starts.
struct SchemaLanguageToken: Sendable, Equatable {
    /// What the token is.
    enum Kind: Sendable, Equatable {
        /// A bare word: a keyword or a name (`RECORD`, `City`).
        case word(String)
        /// A double-quoted name, without its quotes (`___recordID`).
        case quoted(String)
        /// One of `(`, `)`, `,`, `;`, `<`, `>`.
        case symbol(Unicode.Scalar)
        /// The end of the text.
        case end
    }

    var kind: Kind
    /// The line, from 1.
    var line: Int
    /// The column, from 1, in Unicode scalars.
    var column: Int

    /// The token as an error message quotes it: `'STRNG'`, `'"grant"'`, `')'`, `the end of the file`.
    var quotedForMessage: String {
        switch kind {
        case .word(let word): "'\(Self.shortened(word))'"
        case .quoted(let name): "'\"\(Self.shortened(name))\"'"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end of the file"
        }
    }

    /// The keyword this token spells, upper-cased, or nil when it is not a bare word.
    var keyword: String? {
        if case .word(let word) = kind { return word.uppercased() }
        return nil
    }

    /// A long word cut to 40 characters for a message.
    private static func shortened(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}

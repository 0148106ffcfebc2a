/// Printing of key paths: a component that is a reserved word or starts with a digit
/// gets a `#` prefix so that it reads back as a key (`#size`, `address.#in`, `#1`).
enum KeyPathFormatting {
    /// The words of the format-string language that cannot be bare keys, in upper case.
    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "LIKE", "MATCHES", "BEGINSWITH", "ENDSWITH", "CONTAINS",
        "BETWEEN", "ANY", "ALL", "NONE", "SOME", "TRUEPREDICATE", "FALSEPREDICATE", "NULL",
        "NIL", "SELF", "TRUE", "FALSE", "YES", "NO", "FIRST", "LAST", "SIZE", "SUBQUERY",
        "FUNCTION", "TERNARY", "CAST",
    ]

    /// Whether the word is reserved, ignoring case.
    static func isReserved(_ word: String) -> Bool {
        reservedWords.contains(word.uppercased())
    }

    /// Whether a component needs the `#` prefix to read back as a key: a reserved word,
    /// or a name starting with a digit (`#1` is the key "1"; bare `1` would be a number).
    static func needsPrefix(_ component: Substring) -> Bool {
        if let first = component.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") { return true }
        return isReserved(String(component))
    }

    /// The dotted key path with each component that needs it prefixed by `#`.
    static func escaped(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false)
            .map { component in needsPrefix(component) ? "#\(component)" : String(component) }
            .joined(separator: ".")
    }
}

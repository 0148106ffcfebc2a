/// Printing of key paths: a component that is a reserved word gets a `#` prefix
/// so that it reads back as a key (`#size`, `address.#in`).
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

    /// The dotted key path with each reserved component prefixed by `#`.
    static func escaped(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false)
            .map { component in isReserved(String(component)) ? "#\(component)" : String(component) }
            .joined(separator: ".")
    }
}

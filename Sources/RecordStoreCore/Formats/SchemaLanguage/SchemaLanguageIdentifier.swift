/// How the schema language writes names: bare when they are letters, digits and underscores
/// starting with a letter and not a reserved word, in double quotes otherwise.
enum SchemaLanguageIdentifier {
    /// The words that must be quoted to be used as names (the language's reserved words).
    static let reservedWords: Set<String> = ["GRANT", "PREFERRED", "QUERYABLE", "SORTABLE", "SEARCHABLE"]

    /// Whether a bare word is a reserved word, in any case.
    static func isReserved(_ word: String) -> Bool {
        reservedWords.contains(word.uppercased())
    }

    /// Whether a name can be written without quotes.
    static func isBare(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy(isNameCharacter) && !isReserved(name)
    }

    /// `a-z` or `A-Z`.
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value >= 65 && scalar.value <= 90) || (scalar.value >= 97 && scalar.value <= 122)
    }

    /// A letter, `0-9` or `_`.
    static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || (scalar.value >= 48 && scalar.value <= 57) || scalar == "_"
    }

    /// The name as the language prints it: `name` or `"___recordID"`.
    static func printed(_ name: String) -> String {
        isBare(name) ? name : "\"\(name)\""
    }
}

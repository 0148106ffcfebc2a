// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// How a PostgreSQL store keeps a record's full-text words: a `tsvector` of the words the
/// evaluator's tokenizer makes (``FullTextTokenizer``), with a GIN index, and how `self CONTAINS`
/// asks for them: a `tsquery` of the same words, joined by `|` within a group and `&` between groups.
///
/// PostgreSQL's text search is used as a set of exact words only: the words go in already
/// tokenized and folded, quoted, so no text search configuration parses, stems or folds them,
/// and `@@` compares them byte for byte. A `tsvector` holds each distinct word once, with no
/// positions: cities1000's words take 56 bytes a row, where a `text[]` of them took 78.
///
/// ```swift
/// try PostgresFullText.vectorLiteral(["paris", "fr", "paris"], recordType: "City")   // "'fr' 'paris'"
/// PostgresFullText.queryLiteral(allOf: [["new", "york"], ["city"]])                     // "('new' | 'york') & 'city'"
/// ```
enum PostgresFullText {
    /// The longest word a `tsvector` holds, in bytes (PostgreSQL's `MAXSTRLEN`).
    static let longestWord = 2_047
    /// The most bytes of distinct words one `tsvector` holds (PostgreSQL's `MAXSTRPOS`).
    static let longestVector = 1_048_575

    /// The `tsvector` input of a record's words (empty when there are none), refused when its
    /// distinct words take more bytes than one holds. A word longer than a `tsvector` holds is
    /// left out: a query asking for one is answered by reading the records instead
    /// (``queryLiteral(allOf:)``), so no answer changes.
    static func vectorLiteral(_ words: [String], recordType: String) throws(RecordStoreError) -> String {
        let distinct = Set(words.filter(isIndexable))
        let size = distinct.reduce(0) { $0 + $1.utf8.count }
        guard size <= longestVector else {
            throw .unsupportedValue(
                field: "self", recordType: recordType,
                reason: "the record's searchable fields hold \(size) bytes of distinct words, and PostgreSQL's full-text index holds at most \(longestVector) a record")
        }
        return distinct.sorted().map(quoted).joined(separator: " ")
    }

    /// Whether a `tsvector` holds the word.
    static func isIndexable(_ word: String) -> Bool {
        word.utf8.count <= longestWord
    }

    /// The `tsquery` input matching a record that has one of the words of each group (a group's
    /// words joined by `|`, within parentheses when there are other groups, the groups by `&`); nil when a word is
    /// longer than a `tsvector` holds (``vectorLiteral(_:recordType:)`` leaves such words out),
    /// so that the planner reads the records instead.
    static func queryLiteral(allOf groups: [[String]]) -> String? {
        guard groups.allSatisfy({ $0.allSatisfy(isIndexable) }) else { return nil }
        return groups.map { group in
            let words = group.map(quoted).joined(separator: " | ")
            return groups.count > 1 && group.count > 1 ? "(\(words))" : words
        }.joined(separator: " & ")
    }

    /// A word as a quoted lexeme: between single quotes, each quote and backslash doubled, so
    /// that nothing in it reads as an operator, a weight or a position.
    static func quoted(_ word: String) -> String {
        var text = "'"
        for character in word.unicodeScalars {
            if character == "'" || character == "\\" { text.unicodeScalars.append(character) }
            text.unicodeScalars.append(character)
        }
        return text + "'"
    }
}
#endif

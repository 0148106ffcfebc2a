/// The full-text searches of an `AND` or `OR`, gathered: all the comparisons that search the same
/// words (an object's searchable text, or the tokens of one value) make one search, which
/// tokenizes that text once and looks its words up in sets, and which a database answers as one
/// full-text match. CloudKit's token filters (`CONTAINS_ALL_TOKENS`, `CONTAINS_ANY_TOKENS`) arrive
/// as one comparison per token; a search of 1,000 tokens is then one search, not 1,000.
///
/// A search holds groups of words: it matches when each group has a word among the text's (so
/// `OR` merges groups into one, `AND` adds groups). The comparisons it recognizes:
/// - `SELF CONTAINS "words"`: any of the words' tokens (``FullTextTokenizer``) in the object's
///   searchable text;
/// - `ANY tokenize:using:(value, locale) == "word"`, or `IN` a list of words: any of the words
///   among the tokens of the value.
///
/// ```swift
/// let parts = try ["bob", "smith"].map { try FormatPredicate(format: "SELF CONTAINS %@", $0) }
/// let gathered = TokenSearch.gather(parts, conjunction: true)
/// // [.search(TokenSearch(target: .searchableText, groups: [["bob"], ["smith"]], ...))]
/// ```
package struct TokenSearch: Hashable, Sendable {
    /// The text a search reads.
    package enum Target: Hashable, Sendable {
        /// The object's searchable text (`SELF CONTAINS`).
        case searchableText
        /// The tokens `tokenize:using:` makes of a value: the expression is the whole call.
        case tokens(FormatExpression)
    }

    /// An operand of the `AND` or `OR`: a search, or another part left as it is.
    package enum Operand: Hashable, Sendable {
        case search(TokenSearch)
        case other(FormatPredicate)
    }

    /// The text it reads.
    package let target: Target
    /// The groups of words, each sorted and without repeats: every group needs one of its words.
    package private(set) var groups: [[String]]
    /// The comparisons it stands for, in their order.
    package private(set) var parts: [FormatPredicate]

    /// The search one comparison makes; nil for a comparison that is not one.
    package init?(_ predicate: FormatPredicate) {
        guard case .comparison(let comparison) = predicate else { return nil }
        switch (comparison.left, comparison.modifier, comparison.operator, comparison.right) {
        case (.evaluatedObject, .direct, .contains, .constant(.string(let text))):
            target = .searchableText
            groups = [FullTextTokenizer.tokenSet(text).sorted()]
        case (.function("tokenize:using:", let arguments), .any, let comparator, let right):
            guard comparison.options.isEmpty, arguments.count == 2, arguments[1].constantValue != nil,
                  let words = Self.words(comparator, right) else { return nil }
            target = .tokens(comparison.left)
            groups = [Set(words).sorted()]
        default:
            return nil
        }
        parts = [predicate]
    }

    /// The words `== "word"` or `IN {words}` compares a token with; nil for another comparison.
    private static func words(_ comparator: ComparisonOperator, _ right: FormatExpression) -> [String]? {
        switch (comparator, right) {
        case (.equalTo, .constant(.string(let word))):
            return [word]
        case (.in, .constant(.list(let members))):
            return strings(members)
        case (.in, .aggregate(let members)):
            return strings(members.map { $0.constantValue ?? .null })
        default:
            return nil
        }
    }

    private static func strings(_ members: [Value]) -> [String]? {
        var words: [String] = []
        for member in members {
            guard case .string(let word) = member else { return nil }
            words.append(word)
        }
        return words
    }

    /// The operands of an `AND` (`conjunction`) or an `OR`, with the searches of each target
    /// merged into one, placed where the first of its comparisons was.
    package static func gather(_ operands: [FormatPredicate], conjunction: Bool) -> [Operand] {
        var gathered: [Operand] = []
        var positions: [Target: Int] = [:]
        for operand in operands {
            guard let search = TokenSearch(operand) else {
                gathered.append(.other(operand))
                continue
            }
            guard let position = positions[search.target], case .search(var merged) = gathered[position] else {
                positions[search.target] = gathered.count
                gathered.append(.search(search))
                continue
            }
            merged.merge(search, conjunction: conjunction)
            gathered[position] = .search(merged)
        }
        return gathered
    }

    /// Adds another search of the same target: its groups (`AND`), or its words to the one group (`OR`).
    private mutating func merge(_ other: TokenSearch, conjunction: Bool) {
        parts += other.parts
        if conjunction {
            for group in other.groups where !groups.contains(group) { groups.append(group) }
        } else {
            // Each search of an OR has one group: a word of either one will do.
            groups = [Set(groups.joined()).union(other.groups.joined()).sorted()]
        }
    }

    /// The number of words it asks for, repeats in different groups counted once.
    package var wordCount: Int {
        Set(groups.joined()).count
    }

    /// The comparisons it stands for, as one predicate.
    package func predicate(conjunction: Bool) -> FormatPredicate {
        if parts.count == 1 { return parts[0] }
        return conjunction ? .and(parts) : .or(parts)
    }
}

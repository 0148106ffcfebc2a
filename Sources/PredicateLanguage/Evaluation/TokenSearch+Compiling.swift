extension TokenSearch {
    /// The search as one test: the text is read and tokenized once, and each token looked up in
    /// the words' table, until every group has one of its words.
    ///
    /// `SELF CONTAINS` on an object that is a string or a list (not a record) is no search: there
    /// each comparison tests its words as a substring or a member, as it does alone, and the
    /// results are combined by the `AND` (`conjunction`) or `OR`.
    func compile(conjunction: Bool, options: EvaluationOptions, layout: CompiledFieldLayout?) throws(FormatPredicateError) -> PredicateClosure {
        let words = TokenGroupTable(groups)
        switch target {
        case .searchableText:
            let memberTests = parts.compactMap { part -> (word: Value, options: ComparisonOptions)? in
                guard case .comparison(let comparison) = part, let word = comparison.right.constantValue else { return nil }
                return (word, comparison.options)
            }
            return { context throws(FormatPredicateError) in
                let object = context.root.evaluatedObjectValue()
                switch object {
                case .string, .list:
                    let test = { (part: (word: Value, options: ComparisonOptions)) in
                        ComparisonSemantics.isMember(part.word, of: object, options: part.options)
                    }
                    return conjunction ? memberTests.allSatisfy(test) : memberTests.contains(where: test)
                default:
                    var progress = words.progress()
                    for text in context.root.fullTextValues() {
                        for token in FullTextTokenizer.tokens(text) where progress.see(token) { return true }
                    }
                    return false
                }
            }
        case .tokens(let call):
            let tokens = try ExpressionCompiler.compile(call, options: options, layout: layout)
            return { context throws(FormatPredicateError) in
                let members = CollectionOperator.members(of: try tokens(context))
                try context.steps.spend(members.count)
                var progress = words.progress()
                for member in members {
                    if case .string(let token) = member, progress.see(token) { return true }
                }
                return false
            }
        }
    }
}

/// The words of a search's groups, by word: which groups each one satisfies.
struct TokenGroupTable: Sendable {
    /// The groups each word belongs to.
    private let groupsOfWord: [String: [Int]]
    /// The number of groups.
    private let groupCount: Int
    /// Whether a group has no word, so that nothing matches.
    private let hasEmptyGroup: Bool

    init(_ groups: [[String]]) {
        var groupsOfWord: [String: [Int]] = [:]
        for (index, group) in groups.enumerated() {
            for word in group { groupsOfWord[word, default: []].append(index) }
        }
        self.groupsOfWord = groupsOfWord
        groupCount = groups.count
        hasEmptyGroup = groups.isEmpty || groups.contains(where: \.isEmpty)
    }

    /// A fresh count of the groups satisfied, for one text.
    func progress() -> Progress {
        Progress(table: self)
    }

    /// The groups one text has satisfied so far.
    struct Progress {
        let table: TokenGroupTable
        private var satisfied: [Bool] = []
        private var count = 0

        init(table: TokenGroupTable) {
            self.table = table
        }

        /// Takes the text's next token; returns true once every group has one of its words.
        mutating func see(_ token: String) -> Bool {
            guard !table.hasEmptyGroup, let groups = table.groupsOfWord[token] else { return false }
            if table.groupCount == 1 { return true }
            if satisfied.isEmpty { satisfied = Array(repeating: false, count: table.groupCount) }
            for group in groups where !satisfied[group] {
                satisfied[group] = true
                count += 1
            }
            return count == table.groupCount
        }
    }
}

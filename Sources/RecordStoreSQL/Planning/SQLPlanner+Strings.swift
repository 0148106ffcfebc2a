import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

extension SQLPlanner {
    /// A comparison of a string field with string constants as SQL on the field's column or, for
    /// `[c]` and `[cd]`, its folded column (``DerivedColumn/caseFolded``,
    /// ``DerivedColumn/caseAndDiacriticFolded``); nil when the comparison is not one of these:
    ///
    /// - `==`, `!=`, `IN`: equality of the folded column with the folded constants, exact (the
    ///   evaluator compares folded strings by canonical equivalence, and folding gives NFC, so
    ///   equal bytes is the same test);
    /// - `BEGINSWITH`: a byte range on the folded column, exact (the evaluator compares the
    ///   folded strings' bytes);
    /// - `LIKE` that is literal text and one trailing `*`: exactly `BEGINSWITH` that text (the
    ///   evaluator's `LIKE` compares code points of the folded strings), the same exact range;
    ///   `LIKE` without wildcards: equality with its text, exact;
    ///   any other `LIKE`: the database's pattern match on the same column (``SQLDialect/patternCondition(_:pattern:)``,
    ///   SQLite's `GLOB`, PostgreSQL's `LIKE`), exact (the evaluator matches the folded pattern
    ///   against the folded string one code point at a time, as both do), inside the range of the
    ///   pattern's literal prefix when it has one, so that the index still narrows the rows.
    ///
    /// - `CONTAINS`, `ENDSWITH`: native substring tests of the folded column (``SQLDialect/containsCondition(_:)``),
    ///   exact; they read every row of the zone, without calling back into Swift.
    ///
    /// Without options, `BEGINSWITH` and `LIKE` are the same ranges on the field's own column,
    /// and `CONTAINS`, `ENDSWITH` the same tests of it. The ranges are index range scans on
    /// `(zone, column)`.
    ///
    /// ```swift
    /// // name BEGINSWITH[cd] "São"  →  (t."name$cd" >= ? AND t."name$cd" < ?)  ["sao", "sap"]
    /// ```
    @_spi(StorageEngine) public func fieldStringCondition(_ comparison: ComparisonPredicate, key: String, field: FieldSchema) -> SQLCondition? {
        guard field.type == .string else { return nil }
        return stringCondition(comparison, subject: .keyPath(key)) { derived in
            guard let derived else { return column(field.name) }
            guard DerivedColumn.columns(for: field).contains(derived) else { return nil }
            return dialect.derivedColumnExpression(derived, field: field.name, alias: alias)
        }
    }

    /// The same conditions on a member of a string list in the list table (`l.value`, and its
    /// folded forms `l."value$c"`, `l."value$cd"`), for `ANY names BEGINSWITH[cd] "sao"` and the like.
    @_spi(StorageEngine) public func memberStringCondition(_ element: ComparisonPredicate, field: FieldSchema) -> SQLCondition? {
        guard field.type.elementType == .string else { return nil }
        return stringCondition(element, subject: .evaluatedObject) { derived in
            guard let derived else { return "l.value" }
            return DerivedColumn.memberColumns(for: field).contains(derived) ? "l.\(dialect.quote(TableLayout.derivedColumn("value", derived)))" : nil
        }
    }

    /// A comparison of `subject` (the field, or a list member) with string constants as a
    /// condition on `column(nil)` (the stored string) or `column(derived)` (its folded form);
    /// nil when it is not one of the comparisons above, or the column is missing.
    func stringCondition(
        _ comparison: ComparisonPredicate, subject: FormatExpression, column: (DerivedColumn?) -> String?
    ) -> SQLCondition? {
        if comparison.options.isEmpty {
            // Without options, prefixes are byte ranges on the stored string itself (stored in NFC),
            // and substrings are tests of it; the constant is put in NFC as the evaluator puts it.
            guard let stored = column(nil) else { return nil }
            let form: (Value) -> String? = { value in
                guard case .string(let string) = value else { return nil }
                let normalized = TextFolding.normalized(string)
                return dialect.bindsExactly(.text(normalized)) ? normalized : nil
            }
            return prefixCondition(comparison, subject: subject, column: stored, form: form)
                ?? substringCondition(comparison, subject: subject, column: stored, form: form)
        }
        guard let derived = DerivedColumn.folded(for: comparison.options), let folded = column(derived) else { return nil }
        func fold(_ value: Value) -> SQLValue? {
            guard case .string(let string) = value else { return nil }
            let argument = derived.value(of: string)
            return dialect.bindsExactly(argument) ? argument : nil
        }
        switch (comparison.left, comparison.operator, comparison.right) {
        case (subject, .equalTo, .constant(let value)), (.constant(let value), .equalTo, subject):
            guard let argument = fold(value) else { return nil }
            return .exact("(\(folded) IS NOT NULL AND \(folded) = ?)", [argument])
        case (subject, .notEqualTo, .constant(let value)), (.constant(let value), .notEqualTo, subject):
            guard let argument = fold(value) else { return nil }
            return .exact("(\(folded) IS NULL OR \(folded) <> ?)", [argument])
        case (subject, .in, .constant(.list(let members))):
            var arguments: [SQLValue] = []
            for member in members {
                guard let argument = fold(member) else { return nil }
                arguments.append(argument)
            }
            if arguments.isEmpty { return constant(false) }
            let placeholders = Array(repeating: "?", count: arguments.count).joined(separator: ", ")
            return .exact("(\(folded) IS NOT NULL AND \(folded) IN (\(placeholders)))", arguments)
        case (subject, .beginsWith, _), (subject, .like, _), (subject, .contains, _), (subject, .endsWith, _):
            let form: (Value) -> String? = { value in
                guard case .text(let text)? = fold(value) else { return nil }
                return text
            }
            return prefixCondition(comparison, subject: subject, column: folded, form: form)
                ?? substringCondition(comparison, subject: subject, column: folded, form: form)
        default:
            return nil
        }
    }

    /// `CONTAINS` and `ENDSWITH` a string as native string tests of `column`, exact (the
    /// evaluator compares the bytes of the strings, so the code points); they read every row of
    /// the zone, but without calling back into Swift.
    private func substringCondition(
        _ comparison: ComparisonPredicate, subject: FormatExpression, column: String, form: (Value) -> String?
    ) -> SQLCondition? {
        guard case .constant(.string(let needle)) = comparison.right, comparison.left == subject else { return nil }
        switch comparison.operator {
        case .contains, .endsWith:
            // An empty needle matches nothing, as in the evaluator.
            guard !needle.isEmpty else { return constant(false) }
            guard let argument = form(.string(needle)) else { return nil }
            // Folding can empty a needle (a lone accent under [d]): that matches nothing too.
            guard !argument.isEmpty else { return constant(false) }
            if comparison.operator == .contains {
                return .exact("(\(column) IS NOT NULL AND \(dialect.containsCondition(column)))", [.text(argument)])
            }
            return .exact(
                "(\(column) IS NOT NULL AND \(dialect.endsWithCondition(column)))",
                [.integer(Int64(argument.unicodeScalars.count)), .text(argument)])
        default:
            return nil
        }
    }

    /// `BEGINSWITH` a string or `LIKE` a pattern as a range of `column` (with the database's
    /// pattern match for a pattern that is more than a prefix), exact, the constant made
    /// comparable with it by `form` (nil: no plan).
    private func prefixCondition(
        _ comparison: ComparisonPredicate, subject: FormatExpression, column: String, form: (Value) -> String?
    ) -> SQLCondition? {
        switch (comparison.left, comparison.operator, comparison.right) {
        case (subject, .beginsWith, .constant(.string(let prefix))):
            // An empty prefix matches nothing, as in the evaluator.
            guard !prefix.isEmpty else { return constant(false) }
            guard let lower = form(.string(prefix)) else { return nil }
            return prefixRange(column, lower, isExact: true)
        case (subject, .like, .constant(.string(let pattern))):
            // Without wildcards it is equality with its text, exactly (NFC forms, folded alike).
            if let text = LikePattern.wholeLiteral(of: pattern) {
                guard let argument = form(.string(text)) else { return nil }
                return .exact("(\(column) IS NOT NULL AND \(column) = ?)", [.text(argument)])
            }
            // Literal text and one trailing `*` is BEGINSWITH that text, exactly.
            if let literal = LikePattern.prefixLiteral(of: pattern) {
                guard let lower = form(.string(literal)) else { return nil }
                if lower.isEmpty { return constant(false) }
                return prefixRange(column, lower, isExact: true)
            }
            // Any other pattern: the database's own pattern match on the same (folded) column,
            // exact, inside the range of its literal prefix when it has one (the index seek).
            let match = dialect.patternCondition(column, pattern: LikePattern(pattern, options: comparison.options))
            guard let matchSQL = match.sql, match.arguments.allSatisfy(dialect.bindsExactly) else { return nil }
            let literal = LikePattern.literalPrefix(of: pattern)
            guard !literal.isEmpty else { return .exact("(\(column) IS NOT NULL AND \(matchSQL))", match.arguments) }
            guard let lower = form(.string(literal)), let range = prefixRange(column, lower, isExact: true), let rangeSQL = range.sql else {
                return nil
            }
            return .exact("(\(rangeSQL) AND \(matchSQL))", range.arguments + match.arguments)
        default:
            return nil
        }
    }

    /// The strings that start with `prefix` (in UTF-8 byte order): `column >= prefix AND column <
    /// the next string after every string with that prefix`; nil when there is no such bound.
    private func prefixRange(_ column: String, _ prefix: String, isExact: Bool) -> SQLCondition? {
        guard let upper = Self.prefixUpperBound(prefix) else { return nil }
        let ordered = dialect.codePointOrder(column)
        return SQLCondition(sql: "(\(column) IS NOT NULL AND \(ordered) >= ? AND \(ordered) < ?)", arguments: [.text(prefix), .text(upper)], isExact: isExact)
    }

    /// The least string greater than every string that starts with `prefix`: the prefix with its
    /// last code point increased by one (a maximal code point is dropped and the one before it
    /// increased); nil when there is none (every code point maximal).
    ///
    /// ```swift
    /// SQLPlanner.prefixUpperBound("sao")   // "sap"
    /// ```
    @_spi(StorageEngine) public static func prefixUpperBound(_ prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }  // skip the surrogates, which are not scalars
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var result = String.UnicodeScalarView()
                result.append(contentsOf: scalars)
                return String(result)
            }
        }
        return nil
    }
}

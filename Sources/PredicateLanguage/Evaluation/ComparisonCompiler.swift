import Foundation

/// Which orderings an ordering operator accepts (`<=` accepts ascending and same).
struct OrderAcceptance: Sendable {
    let ascending: Bool
    let same: Bool
    let descending: Bool

    init?(_ operator: ComparisonOperator) {
        switch `operator` {
        case .lessThan: (ascending, same, descending) = (true, false, false)
        case .lessThanOrEqualTo: (ascending, same, descending) = (true, true, false)
        case .greaterThan: (ascending, same, descending) = (false, false, true)
        case .greaterThanOrEqualTo: (ascending, same, descending) = (false, true, true)
        default: return nil
        }
    }

    @inline(__always)
    func accepts(_ order: ComparisonResult?) -> Bool {
        switch order {
        case .orderedAscending?: ascending
        case .orderedSame?: same
        case .orderedDescending?: descending
        case nil: false
        }
    }

    @inline(__always)
    func accepts<T: Comparable>(_ left: T, _ right: T) -> Bool {
        left < right ? ascending : (left == right ? same : descending)
    }
}

/// Turns a comparison into a closure, with fast paths for a constant right side:
/// folded strings folded once, patterns and regular expressions compiled once,
/// constant lists turned into sets.
enum ComparisonCompiler {
    /// A test of a left value against a constant right side.
    typealias ConstantTest = @Sendable (Value) throws(FormatPredicateError) -> Bool
    /// A test of a left value against a right value.
    typealias PairTest = @Sendable (Value, Value) throws(FormatPredicateError) -> Bool

    /// With a `layout`, the keys read from `SELF` are resolved to its field readers (the closures
    /// then run only on objects of the layout's type).
    static func compile(_ comparison: ComparisonPredicate, options: EvaluationOptions, layout: CompiledFieldLayout?) throws(FormatPredicateError) -> PredicateClosure {
        let left = try ExpressionCompiler.compile(comparison.left, options: options, layout: layout)
        let right = try ExpressionCompiler.compile(comparison.right, options: options, layout: layout)
        let modifier = comparison.modifier

        if modifier == .direct, comparison.operator == .contains, case .evaluatedObject = comparison.left {
            return fullTextComparison(comparison, left: left, right: right, options: options)
        }

        if let constant = comparison.right.constantValue {
            let test = try constantTest(comparison.operator, constant, options: comparison.options, evaluation: options)
            if modifier == .direct, case .keyPath(let path) = comparison.left, let key = try CompiledKeyPath(path).singleKey {
                if let reader = layout?.reader(key) {
                    return { context throws(FormatPredicateError) in try test(context.root.value(forKey: key, reader: reader)) }
                }
                if let fused = FusedKeyComparison.compile(comparison) {
                    return fused
                }
                return { context throws(FormatPredicateError) in try test(context.root.value(forKey: key)) }
            }
            switch modifier {
            case .direct:
                return { context throws(FormatPredicateError) in try test(left(context)) }
            case .any:
                return { context throws(FormatPredicateError) in
                    let members = try CollectionOperator.quantifiedMembers(of: left(context))
                    try context.steps.spend(members.count)
                    for member in members {
                        if try test(member) { return true }
                    }
                    return false
                }
            case .all:
                return { context throws(FormatPredicateError) in
                    let members = try CollectionOperator.quantifiedMembers(of: left(context))
                    try context.steps.spend(members.count)
                    for member in members {
                        if try !test(member) { return false }
                    }
                    return true
                }
            }
        }

        let test = pairTest(comparison.operator, options: comparison.options, evaluation: options)
        switch modifier {
        case .direct:
            return { context throws(FormatPredicateError) in try test(left(context), right(context)) }
        case .any:
            return { context throws(FormatPredicateError) in
                let rightValue = try right(context)
                let members = try CollectionOperator.quantifiedMembers(of: left(context))
                try context.steps.spend(members.count)
                for member in members {
                    if try test(member, rightValue) { return true }
                }
                return false
            }
        case .all:
            return { context throws(FormatPredicateError) in
                let rightValue = try right(context)
                let members = try CollectionOperator.quantifiedMembers(of: left(context))
                try context.steps.spend(members.count)
                for member in members {
                    if try !test(member, rightValue) { return false }
                }
                return true
            }
        }
    }

    /// `SELF CONTAINS x`: a substring or list test when SELF is a string or a list;
    /// otherwise, with a string on the right, a full-text search of the object.
    static func fullTextComparison(
        _ comparison: ComparisonPredicate, left: @escaping ExpressionClosure, right: @escaping ExpressionClosure,
        options: EvaluationOptions
    ) -> PredicateClosure {
        let comparisonOptions = comparison.options
        let constantTokens: Set<String>?
        if case .constant(.string(let query)) = comparison.right {
            constantTokens = FullTextTokenizer.tokenSet(query)
        } else {
            constantTokens = nil
        }
        return { context throws(FormatPredicateError) in
            let selfValue = context.root.evaluatedObjectValue()
            let rightValue = try right(context)
            switch selfValue {
            case .string, .list:
                return ComparisonSemantics.isMember(rightValue, of: selfValue, options: comparisonOptions)
            default:
                guard case .string(let query) = rightValue else {
                    return ComparisonSemantics.isMember(rightValue, of: selfValue, options: comparisonOptions)
                }
                let tokens = constantTokens ?? FullTextTokenizer.tokenSet(query)
                return ComparisonSemantics.fullTextMatches(context.root.fullTextValues(), queryTokens: tokens)
            }
        }
    }

    /// The general test, for a right side known only at evaluation.
    static func pairTest(_ operator: ComparisonOperator, options: ComparisonOptions, evaluation: EvaluationOptions) -> PairTest {
        let limits = evaluation.regularExpressionLimits
        return { left, right throws(FormatPredicateError) in
            try ComparisonSemantics.holds(`operator`, left, right, options: options, regularExpressionLimits: limits)
        }
    }

    /// The test against a constant right side, with the constant prepared once.
    static func constantTest(
        _ operator: ComparisonOperator, _ constant: Value, options: ComparisonOptions, evaluation: EvaluationOptions
    ) throws(FormatPredicateError) -> ConstantTest {
        let folds = TextFolding.folds(options)
        let lowercase = options.contains(.caseInsensitive)

        switch (`operator`, constant) {
        case (.equalTo, _), (.notEqualTo, _):
            let equal = equalityTest(constant, options: options)
            if `operator` == .equalTo { return equal }
            return { value throws(FormatPredicateError) in try !equal(value) }

        case (.lessThan, _), (.lessThanOrEqualTo, _), (.greaterThan, _), (.greaterThanOrEqualTo, _):
            guard let acceptance = OrderAcceptance(`operator`) else { break }
            switch constant {
            case .int(let bound):
                return { value in ordered(value, acceptance, integer: bound, constant: constant) }
            case .double(let bound):
                return { value in ordered(value, acceptance, double: bound, constant: constant) }
            case .string(let bound):
                let folded = TextFolding.fold(bound, options: options)
                return { value in
                    guard case .string(let string) = value else { return false }
                    return acceptance.accepts(ValueOrdering.compareCodePoints(TextFolding.fold(string, options: options), folded))
                }
            default:
                return { value in acceptance.accepts(ValueOrdering.compare(value, constant, options: options)) }
            }

        case (.beginsWith, .string(let prefix)):
            let folded = TextFolding.fold(prefix, options: options)
            if folded.isEmpty { return { _ in false } }
            if !folds { return { value in
                if case .string(let string) = value { return StringMatching.hasPrefix(TextFolding.normalized(string), folded) }
                return false
            } }
            let asciiConstant = folded.utf8.allSatisfy { $0 < 0x80 }
            return { value in
                guard case .string(let string) = value else { return false }
                if asciiConstant {
                    switch StringMatching.asciiFoldedHasPrefix(string, folded, lowercase: lowercase) {
                    case .matched: return true
                    case .failed: return false
                    case .undecided: break
                    }
                }
                return StringMatching.hasPrefix(TextFolding.fold(string, options: options), folded)
            }

        case (.endsWith, .string(let suffix)):
            let folded = TextFolding.fold(suffix, options: options)
            return { value in
                guard case .string(let string) = value else { return false }
                return StringMatching.hasSuffix(TextFolding.fold(string, options: options), folded)
            }

        case (.contains, .string(let needle)):
            let folded = TextFolding.fold(needle, options: options)
            return { value in
                if case .string(let string) = value {
                    return StringMatching.contains(TextFolding.fold(string, options: options), folded)
                }
                return ComparisonSemantics.isMember(constant, of: value, options: options)
            }

        case (.like, .string(let pattern)):
            let compiled = LikePattern(pattern, options: options)
            return { value in
                guard case .string(let string) = value else { return false }
                return compiled.matches(TextFolding.fold(string, options: options))
            }

        case (.matches, .string(let pattern)):
            let matcher = try RegularExpressionMatcher(pattern: pattern, options: options, limits: evaluation.regularExpressionLimits)
            return { value throws(FormatPredicateError) in
                guard case .string(let string) = value else { return false }
                return try matcher.matches(string)
            }

        case (.in, .list(let members)):
            if !folds {
                let set = Set(members)
                return { value in set.contains(value) }
            }
            let foldedStrings = Set(members.compactMap(\.stringValue).map { TextFolding.fold($0, options: options) })
            return { value in
                if case .string(let string) = value {
                    return foldedStrings.contains(TextFolding.fold(string, options: options))
                }
                return ComparisonSemantics.isMember(value, of: constant, options: options)
            }

        case (.in, .string(let haystack)):
            let folded = TextFolding.fold(haystack, options: options)
            return { value in
                guard case .string(let needle) = value else { return false }
                return StringMatching.contains(folded, TextFolding.fold(needle, options: options))
            }

        default:
            break
        }
        let limits = evaluation.regularExpressionLimits
        return { value throws(FormatPredicateError) in
            try ComparisonSemantics.holds(`operator`, value, constant, options: options, regularExpressionLimits: limits)
        }
    }

    /// `== constant`, with strings folded once and an ASCII fast path.
    static func equalityTest(_ constant: Value, options: ComparisonOptions) -> ConstantTest {
        let folds = TextFolding.folds(options)
        switch constant {
        case .string(let expected):
            if !folds {
                return { value in equals(value, string: expected) }
            }
            let folded = TextFolding.fold(expected, options: options)
            let lowercase = options.contains(.caseInsensitive)
            let asciiConstant = folded.utf8.allSatisfy { $0 < 0x80 }
            return { value in
                guard case .string(let string) = value else { return false }
                if asciiConstant {
                    switch StringMatching.asciiFoldedEquals(string, folded, lowercase: lowercase) {
                    case .matched: return true
                    case .failed: return false
                    case .undecided: break
                    }
                }
                return TextFolding.fold(string, options: options) == folded
            }
        case .int(let expected):
            return { value in equals(value, integer: expected, constant: constant) }
        case .null:
            return { value in value.isNull }
        default:
            return { value in ComparisonSemantics.equal(value, constant, options: options) }
        }
    }

    // MARK: - Tests shared by the constant tests and the fused key comparisons

    /// `value op bound` for an ordering operator and an integer constant.
    @inline(__always)
    static func ordered(_ value: Value, _ acceptance: OrderAcceptance, integer bound: Int64, constant: Value) -> Bool {
        if case .int(let number) = value { return acceptance.accepts(number, bound) }
        return acceptance.accepts(NumericComparison.compare(value, constant))
    }

    /// `value op bound` for an ordering operator and a double constant.
    @inline(__always)
    static func ordered(_ value: Value, _ acceptance: OrderAcceptance, double bound: Double, constant: Value) -> Bool {
        if case .double(let number) = value {
            if number.isNaN || bound.isNaN { return false }
            return acceptance.accepts(number, bound)
        }
        return acceptance.accepts(NumericComparison.compare(value, constant))
    }

    /// `value == expected` for a string constant without folding.
    @inline(__always)
    static func equals(_ value: Value, string expected: String) -> Bool {
        if case .string(let string) = value { return string == expected }
        return false
    }

    /// `value == expected` for an integer constant.
    @inline(__always)
    static func equals(_ value: Value, integer expected: Int64, constant: Value) -> Bool {
        if case .int(let number) = value { return number == expected }
        return value == constant
    }
}

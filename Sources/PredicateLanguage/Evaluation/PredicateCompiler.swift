/// Turns a `FormatPredicate` into a closure, once.
enum PredicateCompiler {
    /// With a `layout`, the keys read from `SELF` are resolved to its field readers (the closures
    /// then run only on objects of the layout's type).
    static func compile(_ predicate: FormatPredicate, options: EvaluationOptions, layout: CompiledFieldLayout?) throws(FormatPredicateError) -> PredicateClosure {
        switch predicate {
        case .constant(let truth):
            return { _ in truth }
        case .comparison(let comparison):
            return try ComparisonCompiler.compile(comparison, options: options, layout: layout)
        case .not(let operand):
            let compiled = try compile(operand, options: options, layout: layout)
            return { context throws(FormatPredicateError) in
                let truth = try compiled(context)
                return !truth
            }
        case .and(let operands):
            if layout == nil, operands.count >= 2, case .comparison(let first) = operands[0],
               FusedKeyComparison.compile(first) != nil {
                // The first comparison, fused, runs the rest of the AND itself: one call less per
                // object. Only the first: a chain of fused operands would nest one call per operand.
                let rest = try conjunction(Array(operands.dropFirst()), options: options, layout: layout)
                if let fused = FusedKeyComparison.compile(first, then: rest) { return fused }
            }
            return try conjunction(operands, options: options, layout: layout)
        case .or(let operands):
            let compiled = try compileAll(operands, conjunction: false, options: options, layout: layout)
            switch compiled.count {
            case 0: return { _ in false }
            case 1: return compiled[0].test
            case 2:
                let (first, second) = (compiled[0].test, compiled[1].test)
                return { context throws(FormatPredicateError) in
                    if try first(context) { return true }
                    return try second(context)
                }
            default:
                return { context throws(FormatPredicateError) in
                    for operand in compiled {
                        if try operand.test(context) { return true }
                    }
                    return false
                }
            }
        }
    }

    /// `AND` of the operands, in order, stopping at the first false one.
    static func conjunction(
        _ operands: [FormatPredicate], options: EvaluationOptions, layout: CompiledFieldLayout?
    ) throws(FormatPredicateError) -> PredicateClosure {
        let compiled = try compileAll(operands, conjunction: true, options: options, layout: layout)
        switch compiled.count {
        case 0: return { _ in true }
        case 1: return compiled[0].test
        case 2:
            let (first, second) = (compiled[0].test, compiled[1].test)
            return { context throws(FormatPredicateError) in
                if try !first(context) { return false }
                return try second(context)
            }
        case 3:
            let (first, second, third) = (compiled[0].test, compiled[1].test, compiled[2].test)
            return { context throws(FormatPredicateError) in
                if try !first(context) { return false }
                if try !second(context) { return false }
                return try third(context)
            }
        default:
            return { context throws(FormatPredicateError) in
                for operand in compiled {
                    if try !operand.test(context) { return false }
                }
                return true
            }
        }
    }

    /// The operands of an `AND` (`conjunction`) or `OR`, compiled; the full-text searches among
    /// them that read the same text are compiled as one (``TokenSearch``), where the first was.
    static func compileAll(
        _ predicates: [FormatPredicate], conjunction: Bool, options: EvaluationOptions, layout: CompiledFieldLayout?
    ) throws(FormatPredicateError) -> [CompiledPredicateOperand] {
        var compiled: [CompiledPredicateOperand] = []
        compiled.reserveCapacity(predicates.count)
        for operand in TokenSearch.gather(predicates, conjunction: conjunction) {
            switch operand {
            case .search(let search) where search.parts.count > 1:
                compiled.append(CompiledPredicateOperand(test: try search.compile(conjunction: conjunction, options: options, layout: layout)))
            case .search(let search):
                compiled.append(CompiledPredicateOperand(test: try compile(search.parts[0], options: options, layout: layout)))
            case .other(let predicate):
                compiled.append(CompiledPredicateOperand(test: try compile(predicate, options: options, layout: layout)))
            }
        }
        return compiled
    }
}

/// Turns a `FormatPredicate` into a closure, once.
enum PredicateCompiler {
    static func compile(_ predicate: FormatPredicate, options: EvaluationOptions) throws(FormatPredicateError) -> PredicateClosure {
        switch predicate {
        case .constant(let truth):
            return { _ in truth }
        case .comparison(let comparison):
            return try ComparisonCompiler.compile(comparison, options: options)
        case .not(let operand):
            let compiled = try compile(operand, options: options)
            return { context throws(FormatPredicateError) in
                let truth = try compiled(context)
                return !truth
            }
        case .and(let operands):
            let compiled = try compileAll(operands, options: options)
            switch compiled.count {
            case 0: return { _ in true }
            case 1: return compiled[0]
            case 2:
                let (first, second) = (compiled[0], compiled[1])
                return { context throws(FormatPredicateError) in
                    if try !first(context) { return false }
                    return try second(context)
                }
            case 3:
                let (first, second, third) = (compiled[0], compiled[1], compiled[2])
                return { context throws(FormatPredicateError) in
                    if try !first(context) { return false }
                    if try !second(context) { return false }
                    return try third(context)
                }
            default:
                return { context throws(FormatPredicateError) in
                    for operand in compiled {
                        if try !operand(context) { return false }
                    }
                    return true
                }
            }
        case .or(let operands):
            let compiled = try compileAll(operands, options: options)
            switch compiled.count {
            case 0: return { _ in false }
            case 1: return compiled[0]
            case 2:
                let (first, second) = (compiled[0], compiled[1])
                return { context throws(FormatPredicateError) in
                    if try first(context) { return true }
                    return try second(context)
                }
            default:
                return { context throws(FormatPredicateError) in
                    for operand in compiled {
                        if try operand(context) { return true }
                    }
                    return false
                }
            }
        }
    }

    static func compileAll(_ predicates: [FormatPredicate], options: EvaluationOptions) throws(FormatPredicateError) -> [PredicateClosure] {
        var compiled: [PredicateClosure] = []
        compiled.reserveCapacity(predicates.count)
        for predicate in predicates { compiled.append(try compile(predicate, options: options)) }
        return compiled
    }
}

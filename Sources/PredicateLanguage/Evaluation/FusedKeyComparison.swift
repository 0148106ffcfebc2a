/// A comparison of one key of `SELF` with a constant, in the commonest shapes, compiled into
/// one closure that reads the key and tests it: no second closure call per object.
///
/// Each shape gives exactly the answers of the constant test ``ComparisonCompiler`` builds
/// for it (both call the same test functions); other shapes are not fused.
enum FusedKeyComparison {
    /// The fused closure for `key op constant`, or nil when the shape is not one fused here.
    static func compile(
        key: String, _ operator: ComparisonOperator, _ constant: Value, options: ComparisonOptions
    ) -> PredicateClosure? {
        if let acceptance = OrderAcceptance(`operator`) {
            switch constant {
            case .int(let bound):
                return { context in ComparisonCompiler.ordered(context.root.value(forKey: key), acceptance, integer: bound, constant: constant) }
            case .double(let bound):
                return { context in ComparisonCompiler.ordered(context.root.value(forKey: key), acceptance, double: bound, constant: constant) }
            default:
                return nil
            }
        }
        guard `operator` == .equalTo || `operator` == .notEqualTo else { return nil }
        let negated = `operator` == .notEqualTo
        switch constant {
        case .string(let expected) where !TextFolding.folds(options):
            if negated {
                return { context in !ComparisonCompiler.equals(context.root.value(forKey: key), string: expected) }
            }
            return { context in ComparisonCompiler.equals(context.root.value(forKey: key), string: expected) }
        case .int(let expected):
            if negated {
                return { context in !ComparisonCompiler.equals(context.root.value(forKey: key), integer: expected, constant: constant) }
            }
            return { context in ComparisonCompiler.equals(context.root.value(forKey: key), integer: expected, constant: constant) }
        default:
            return nil
        }
    }
}

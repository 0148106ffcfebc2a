/// A comparison of one key of `SELF` with a constant, in the commonest shapes, compiled into
/// one closure that reads the key and tests it: no second closure call per object. As the
/// first operand of an `AND`, the closure also runs the rest of the `AND` when the test holds,
/// so a conjunction that fails on its first comparison makes one closure call.
///
/// Each shape gives exactly the answers of the constant test ``ComparisonCompiler`` builds
/// for it (both call the same test functions); other shapes are not fused. A fused test
/// never throws, and compiling one never fails.
enum FusedKeyComparison {
    /// The fused closure for `comparison` followed, when given, by `next` (`comparison AND next`),
    /// or nil when the comparison is not `key op constant` in a fused shape.
    static func compile(_ comparison: ComparisonPredicate, then next: PredicateClosure? = nil) -> PredicateClosure? {
        guard comparison.modifier == .direct, case .keyPath(let path) = comparison.left,
              let key = (try? CompiledKeyPath(path))?.singleKey, let constant = comparison.right.constantValue
        else { return nil }
        let `operator` = comparison.operator
        if let acceptance = OrderAcceptance(`operator`) {
            switch constant {
            case .int(let bound):
                return closure(key, OrderedInteger(acceptance: acceptance, bound: bound, constant: constant), then: next)
            case .double(let bound):
                return closure(key, OrderedDouble(acceptance: acceptance, bound: bound, constant: constant), then: next)
            default:
                return nil
            }
        }
        guard `operator` == .equalTo || `operator` == .notEqualTo else { return nil }
        let negated = `operator` == .notEqualTo
        switch constant {
        case .string(let expected) where !TextFolding.folds(comparison.options):
            return closure(key, EqualString(expected: expected, negated: negated), then: next)
        case .int(let expected):
            return closure(key, EqualInteger(expected: expected, constant: constant, negated: negated), then: next)
        default:
            return nil
        }
    }

    /// The closure reading `key` and testing it with `tester`, then running `next`, if any.
    private static func closure<Tester: FusedKeyTester>(_ key: String, _ tester: Tester, then next: PredicateClosure?) -> PredicateClosure {
        guard let next else {
            return { context in tester.holds(context.root.value(forKey: key)) }
        }
        return { context throws(FormatPredicateError) in
            if !tester.holds(context.root.value(forKey: key)) { return false }
            return try next(context)
        }
    }
}

/// The test of a fused key comparison; a protocol so that each closure is specialized for its test.
private protocol FusedKeyTester: Sendable {
    func holds(_ value: Value) -> Bool
}

/// `key op n` for an ordering operator and an integer constant.
private struct OrderedInteger: FusedKeyTester {
    let acceptance: OrderAcceptance
    let bound: Int64
    let constant: Value

    @inline(__always)
    func holds(_ value: Value) -> Bool {
        ComparisonCompiler.ordered(value, acceptance, integer: bound, constant: constant)
    }
}

/// `key op x` for an ordering operator and a double constant.
private struct OrderedDouble: FusedKeyTester {
    let acceptance: OrderAcceptance
    let bound: Double
    let constant: Value

    @inline(__always)
    func holds(_ value: Value) -> Bool {
        ComparisonCompiler.ordered(value, acceptance, double: bound, constant: constant)
    }
}

/// `key == "s"` or `key != "s"` without folding.
private struct EqualString: FusedKeyTester {
    let expected: String
    let negated: Bool

    @inline(__always)
    func holds(_ value: Value) -> Bool {
        ComparisonCompiler.equals(value, string: expected) != negated
    }
}

/// `key == n` or `key != n` for an integer constant.
private struct EqualInteger: FusedKeyTester {
    let expected: Int64
    let constant: Value
    let negated: Bool

    @inline(__always)
    func holds(_ value: Value) -> Bool {
        ComparisonCompiler.equals(value, integer: expected, constant: constant) != negated
    }
}

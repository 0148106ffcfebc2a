import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// The one stored value a comparison reads: finding its key path, and rewriting the comparison
/// over `SELF` so that the evaluator can run it on the value alone (in SQL through a callback,
/// or on a list member).
///
/// ```swift
/// let comparison = try FormatPredicate(format: "population * 2 > 1000")   // .comparison(...)
/// ComparisonKey.singleKey(in: comparison)          // "population"
/// ComparisonKey.substitute("population", in: comparison)   // SELF * 2 > 1000
/// ```
@_spi(StorageEngine) public enum ComparisonKey {
    /// The one key path a comparison reads, when everything else is constant; nil otherwise.
    @_spi(StorageEngine) public static func singleKey(in comparison: ComparisonPredicate) -> String? {
        var keys = Set<String>()
        guard collectKeys(comparison.left, into: &keys), collectKeys(comparison.right, into: &keys), keys.count == 1,
              let key = keys.first, !key.contains("."), !key.contains("@") else { return nil }
        return key
    }

    private static func collectKeys(_ expression: FormatExpression, into keys: inout Set<String>) -> Bool {
        switch expression {
        case .constant: return true
        case .keyPath(let path):
            keys.insert(path)
            return true
        case .arithmetic(.divide, _, _):
            // An integer division by zero is an error naming the expression; evaluated on the value
            // alone the expression would read `SELF / 0`: the residual evaluates it as written.
            return false
        case .arithmetic(_, let left, let right):
            return collectKeys(left, into: &keys) && collectKeys(right, into: &keys)
        case .negation(let inner), .cast(let inner, _):
            return collectKeys(inner, into: &keys)
        case .aggregate(let members):
            return members.allSatisfy { collectKeys($0, into: &keys) }
        case .function(let name, let arguments):
            guard name != "now", name != "random", name != "randomn:", name != "divide:by:" else { return false }
            return arguments.allSatisfy { collectKeys($0, into: &keys) }
        default:
            return false
        }
    }

    /// The comparison with the key path replaced by `SELF` on both sides.
    @_spi(StorageEngine) public static func substitute(_ key: String, in comparison: ComparisonPredicate) -> ComparisonPredicate {
        ComparisonPredicate(
            substitute(key, in: comparison.left), comparison.operator, substitute(key, in: comparison.right),
            modifier: comparison.modifier, options: comparison.options)
    }

    /// The expression with the key path replaced by `SELF`.
    @_spi(StorageEngine) public static func substitute(_ key: String, in expression: FormatExpression) -> FormatExpression {
        switch expression {
        case .keyPath(key): return .evaluatedObject
        case .arithmetic(let operation, let left, let right):
            return .arithmetic(operation, substitute(key, in: left), substitute(key, in: right))
        case .negation(let inner): return .negation(substitute(key, in: inner))
        case .cast(let inner, let type): return .cast(substitute(key, in: inner), type)
        case .aggregate(let members): return .aggregate(members.map { substitute(key, in: $0) })
        case .function(let name, let arguments): return .function(name, arguments.map { substitute(key, in: $0) })
        default: return expression
        }
    }
}

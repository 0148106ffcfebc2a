/// What a SQLite-backed Core Data store (`NSSQLiteStoreType`) rejects at fetch time.
///
/// The SQLite store translates the whole predicate into one SQL statement; anything
/// that would need Objective-C code to run per object, or a value SQLite has no column
/// type for, cannot be translated and fails the fetch (typically with
/// "unsupported function expression" or "unsupported predicate" exceptions).
/// Everything else (comparisons and options, LIKE, MATCHES, ANY/ALL/NONE, SUBQUERY,
/// collection operators, arithmetic, the numeric and string functions, CAST, [SIZE])
/// is accepted.
struct CoreDataRuleChecker {
    /// The violations found so far, in reading order.
    private(set) var violations: [RuleViolation] = []

    /// Built-in functions the SQL translation has no counterpart for.
    static let unsupportedFunctions: Set<String> = [
        // Geographic distance needs CLLocation objects; SQLite stores have no location type.
        "distanceToLocation:fromLocation:",
        // Tokenized full-text search is a CloudKit server feature, not an SQL one.
        "tokenize:using:",
        // `random` and `random:` are evaluated in memory only; the SQL store has no
        // translation for them.
        "random", "random:",
    ]

    private mutating func report(_ thing: String, _ fragment: String) {
        violations.append(RuleViolation(
            profile: .coreData, message: "\(thing) is not supported by a Core Data SQLite store", fragment: fragment))
    }

    mutating func check(_ predicate: FormatPredicate) {
        switch predicate {
        case .constant:
            break
        case .comparison(let comparison):
            check(comparison.left)
            // `SELF CONTAINS "text"` is CloudKit's full-text search; a managed object is not
            // a collection or a string, so the SQL store cannot evaluate it.
            if comparison.operator == .contains, comparison.left == .evaluatedObject {
                report("full-text search (SELF CONTAINS) is", comparison.predicateFormat)
            }
            check(comparison.right)
        case .and(let members), .or(let members):
            for member in members { check(member) }
        case .not(let negated):
            check(negated)
        }
    }

    private mutating func check(_ expression: FormatExpression) {
        let fragment = expression.expressionFormat
        switch expression {
        case .constant(let value):
            check(value)
        case .function(let name, _):
            if Self.unsupportedFunctions.contains(name) {
                report("the function \(name) is", fragment)
            }
        case .customFunction:
            // FUNCTION(target, "selector", ...) calls a method on each object; the SQL store
            // cannot run Objective-C methods inside SQLite.
            report("FUNCTION expressions are", fragment)
        case .ternary(let predicate, _, _):
            // The SQL translation has no conditional expression type.
            report("TERNARY expressions are", fragment)
            check(predicate)
        case .subquery(_, _, let predicate):
            check(predicate)
        case .index(_, let subscriptValue):
            // [SIZE] translates to a COUNT; [FIRST], [LAST] and [n] would need an ordered
            // to-many relationship loaded in memory, which the SQL store cannot index.
            if subscriptValue != .size {
                report("index subscripts other than [SIZE] are", fragment)
            }
        case .evaluatedObject, .variable, .keyPath, .member, .aggregate, .arithmetic, .negation, .cast:
            break
        }
        for child in expression.childExpressions { check(child) }
    }

    /// Constants SQLite has no column type to compare with.
    private mutating func check(_ value: Value) {
        switch value {
        case .location:
            // CLLocation is not a Core Data attribute type (only as a transformable, which
            // the store cannot compare in SQL).
            report("location constants are", value.formatLiteral)
        case .reference:
            // CKRecord.Reference has no Core Data counterpart; relationships compare with
            // managed objects or object IDs instead.
            report("reference constants are", value.formatLiteral)
        case .object:
            // A dictionary is not a Core Data attribute type the SQL store can compare.
            report("object constants are", value.formatLiteral)
        case .list(let members):
            for member in members { check(member) }
        default:
            break
        }
    }
}

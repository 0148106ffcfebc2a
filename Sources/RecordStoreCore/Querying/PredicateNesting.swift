import PredicateLanguage

/// The deepest predicate the store runs. The parser stops at 200 levels of nesting, but a
/// ``FormatPredicate`` built in code can nest without end, and planning, printing (for
/// cursors) and evaluating it recurse once per level: so the store measures the depth
/// first, without recursing, and refuses what is deeper than ``maximumDepth``.
///
/// ```swift
/// var deep = try FormatPredicate(format: "rank == 4")
/// for _ in 0..<1_000 { deep = .not(deep) }
/// try store.records(ofType: "Item", matching: deep)
/// // RecordStoreError.invalidQuery("the predicate is nested more than 300 levels deep")
/// ```
package enum PredicateNesting {
    /// Levels of predicates, expressions and constant lists or objects, counted from the
    /// top: room for anything the parser accepts (200 levels of its own counting).
    package static let maximumDepth = 300

    /// The error for a predicate nested too deeply.
    package static var tooDeep: RecordStoreError {
        .invalidQuery("the predicate is nested more than \(maximumDepth) levels deep")
    }

    /// One node of the tree being measured.
    private enum Node {
        case predicate(FormatPredicate)
        case expression(FormatExpression)
        case value(Value)
    }

    /// Throws ``tooDeep`` when the predicate nests more than ``maximumDepth`` levels.
    package static func check(_ predicate: FormatPredicate) throws(RecordStoreError) {
        var pending: [(Node, depth: Int)] = [(.predicate(predicate), 1)]
        while let (node, depth) = pending.popLast() {
            guard depth <= maximumDepth else { throw tooDeep }
            for child in children(of: node) {
                pending.append((child, depth + 1))
            }
        }
    }

    private static func children(of node: Node) -> [Node] {
        switch node {
        case .predicate(let predicate):
            switch predicate {
            case .constant: return []
            case .comparison(let comparison): return [.expression(comparison.left), .expression(comparison.right)]
            case .and(let parts), .or(let parts): return parts.map(Node.predicate)
            case .not(let inner): return [.predicate(inner)]
            }
        case .expression(let expression):
            switch expression {
            case .constant(let value): return [.value(value)]
            case .evaluatedObject, .variable, .keyPath: return []
            case .member(let base, _), .negation(let base), .cast(let base, _): return [.expression(base)]
            case .index(let base, let subscriptExpression):
                if case .expression(let inner) = subscriptExpression { return [.expression(base), .expression(inner)] }
                return [.expression(base)]
            case .aggregate(let members), .function(_, let members): return members.map(Node.expression)
            case .customFunction(let target, _, let arguments): return [.expression(target)] + arguments.map(Node.expression)
            case .arithmetic(_, let left, let right): return [.expression(left), .expression(right)]
            case .subquery(let collection, _, let inner): return [.expression(collection), .predicate(inner)]
            case .ternary(let condition, let then, let otherwise): return [.predicate(condition), .expression(then), .expression(otherwise)]
            }
        case .value(let value):
            switch value {
            case .list(let members): return members.compactMap { $0.isNested ? Node.value($0) : nil }
            case .object(let fields): return fields.values.compactMap { $0.isNested ? Node.value($0) : nil }
            default: return []
            }
        }
    }
}

private extension Value {
    /// A list or an object: a value that can nest.
    var isNested: Bool {
        switch self {
        case .list, .object: true
        default: false
        }
    }
}

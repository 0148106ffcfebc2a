import PredicateLanguage

/// A predicate's constants taken out of its text, so that a cursor carries what the predicate
/// means, not only how it prints.
///
/// A predicate prints as Apple prints it, and that form does not always parse back to the same
/// predicate: `j / 3.0 > 1` prints `j / 3 > 1`, whose division is an integer one, and
/// `flag == YES` prints `flag == 1`. A cursor that re-parsed the print form could resume a
/// different query, and lose records. So a cursor writes the predicate with each constant
/// replaced by a variable (`j / $queryCursorConstant0 > 1`), and the constants' values beside it
/// in binary, exactly; reading it binds them back.
///
/// ```swift
/// let predicate = try FormatPredicate(format: "j / 3.0 > 1")
/// let (template, values) = PredicateConstants.extract(from: predicate)
/// template.predicateFormat                                       // j / $queryCursorConstant0 > 1
/// values                                                         // [.double(3.0)]
/// PredicateConstants.restore(template, values: values) == predicate   // true
/// ```
package enum PredicateConstants {
    /// The names of the variables that stand for the constants: this, then the constant's index.
    static let variablePrefix = "queryCursorConstant"

    /// The predicate with each constant a cursor writes exactly (``CursorByteWriter/canWrite(_:)``,
    /// and not null, which prints and parses exactly as `nil`) replaced by a variable, and the
    /// constants' values in the order of the variables' numbers.
    package static func extract(from predicate: FormatPredicate) -> (template: FormatPredicate, values: [Value]) {
        var extraction = Extraction()
        let template = extraction.predicate(predicate)
        return (template, extraction.values)
    }

    /// The predicate a template and its constants stand for: ``extract(from:)`` undone.
    package static func restore(_ template: FormatPredicate, values: [Value]) -> FormatPredicate {
        var bindings: [String: Value] = [:]
        for (index, value) in values.enumerated() { bindings[variablePrefix + String(index)] = value }
        return template.substituting(bindings)
    }

    /// Walks a predicate, replacing constants by numbered variables.
    private struct Extraction {
        var values: [Value] = []

        mutating func predicate(_ predicate: FormatPredicate) -> FormatPredicate {
            switch predicate {
            case .constant:
                return predicate
            case .comparison(var comparison):
                comparison.left = expression(comparison.left)
                comparison.right = expression(comparison.right)
                return .comparison(comparison)
            case .and(let members):
                return .and(members.map { self.predicate($0) })
            case .or(let members):
                return .or(members.map { self.predicate($0) })
            case .not(let inner):
                return .not(self.predicate(inner))
            }
        }

        mutating func expression(_ expression: FormatExpression) -> FormatExpression {
            switch expression {
            case .constant(let value):
                guard !value.isNull, CursorByteWriter.canWrite(value) else { return expression }
                values.append(value)
                return .variable(PredicateConstants.variablePrefix + String(values.count - 1))
            case .evaluatedObject, .keyPath, .variable:
                return expression
            case .member(let base, let path):
                return .member(self.expression(base), path)
            case .index(let base, let position):
                let newPosition: IndexSubscript = if case .expression(let inner) = position { .expression(self.expression(inner)) } else { position }
                return .index(self.expression(base), newPosition)
            case .aggregate(let members):
                return .aggregate(members.map { self.expression($0) })
            case .function(let name, let arguments):
                return .function(name, arguments.map { self.expression($0) })
            case .customFunction(let target, let name, let arguments):
                return .customFunction(target: self.expression(target), name: name, arguments: arguments.map { self.expression($0) })
            case .arithmetic(let operation, let left, let right):
                return .arithmetic(operation, self.expression(left), self.expression(right))
            case .negation(let inner):
                return .negation(self.expression(inner))
            case .subquery(let collection, let variable, let predicate):
                return .subquery(collection: self.expression(collection), variable: variable, predicate: self.predicate(predicate))
            case .ternary(let condition, let whenTrue, let whenFalse):
                return .ternary(predicate(condition), self.expression(whenTrue), self.expression(whenFalse))
            case .cast(let operand, let type):
                // The null value (`CAST(nil, "NSNull")`) stays as it is.
                if expression.isNullValue { return expression }
                return .cast(self.expression(operand), type)
            }
        }
    }
}

/// Everything that can go wrong with a predicate: parsing it, binding its
/// arguments and variables, checking it against a rule profile, evaluating it.
///
/// ```swift
/// do {
///     _ = try FormatPredicate(format: "name ==")
/// } catch let error as FormatPredicateError {
///     print(error)
///     // expected an expression after '==', found the end of the input at offset 7
///     //   name ==
///     //          ^
/// }
/// ```
public enum FormatPredicateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The format string is not valid syntax.
    case syntax(SyntaxError)
    /// A format argument is missing, extra, or of the wrong type for its specifier.
    /// `position` counts from 1, in the order the specifiers appear.
    case argument(position: Int, message: String)
    /// A `$VARIABLE` had no value when the predicate was evaluated.
    case unboundVariable(String)
    /// The predicate breaks a rule of the profile it was checked against.
    case ruleViolation(RuleViolation)
    /// Evaluation failed: a function applied to values of the wrong type, an
    /// invalid regular expression, a regular expression that ran too long, ...
    case evaluation(String)
    /// Evaluation stopped: the evaluations an ``EvaluationBudget`` counts together (a query's
    /// records) went past one of its limits.
    case budgetExceeded(EvaluationLimit)

    public var description: String {
        switch self {
        case .syntax(let error):
            error.description
        case .argument(let position, let message):
            "format argument \(position): \(message)"
        case .unboundVariable(let name):
            "variable $\(name) has no value; bind it with substituting(_:) or pass it when evaluating"
        case .ruleViolation(let violation):
            violation.description
        case .evaluation(let message):
            message
        case .budgetExceeded(.steps(let limit)):
            "evaluation took more than \(limit) steps (collection members visited by SUBQUERY, ANY, ALL, NONE and collection "
                + "operators) across every object its budget counts; EvaluationOptions.budget sets the limit"
        case .budgetExceeded(.deadline):
            "evaluation was still running at its budget's deadline (EvaluationOptions.budget)"
        }
    }
}

/// Where and why a format string failed to parse.
public struct SyntaxError: Sendable, Equatable, CustomStringConvertible {
    /// What the parser expected at that point ("an expression", "')'", ...).
    public var expected: String
    /// What it found instead ("'AND'", "the end of the input", ...).
    public var found: String
    /// The offset, in characters (extended grapheme clusters), from the start of the input.
    public var offset: Int
    /// The whole input.
    public var source: String

    /// Creates a syntax error.
    public init(expected: String, found: String, offset: Int, source: String) {
        self.expected = expected
        self.found = found
        self.offset = offset
        self.source = source
    }

    /// The short message: "expected X, found Y at offset N".
    public var message: String {
        "expected \(expected), found \(found) at offset \(offset)"
    }

    /// The message, then the line of the input with a caret under the offending text.
    public var description: String {
        "\(message)\n\(rendering)"
    }

    /// The source line holding the error with a caret under the offset, indented by two spaces.
    /// Long lines are cut to a window around the error.
    public var rendering: String {
        let characters = Array(source)
        let clamped = min(max(offset, 0), characters.count)
        var lineStart = clamped
        while lineStart > 0, !characters[lineStart - 1].isNewline { lineStart -= 1 }
        var lineEnd = clamped
        while lineEnd < characters.count, !characters[lineEnd].isNewline { lineEnd += 1 }
        // Keep at most 60 characters before the caret and 40 after.
        let windowStart = max(lineStart, clamped - 60)
        let windowEnd = min(lineEnd, clamped + 40)
        var line = String(characters[windowStart..<windowEnd])
        var caretColumn = clamped - windowStart
        if windowStart > lineStart {
            line = "..." + line
            caretColumn += 3
        }
        if windowEnd < lineEnd { line += "..." }
        let printable = String(line.map { $0 == "\t" ? " " : $0 })
        return "  \(printable)\n  \(String(repeating: " ", count: caretColumn))^"
    }
}

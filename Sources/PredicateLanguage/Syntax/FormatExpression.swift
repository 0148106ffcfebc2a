/// An expression inside a predicate: the counterpart of `NSExpression`.
///
/// ```swift
/// // population * 2 > 100000
/// let doubled = FormatExpression.arithmetic(.multiply, .keyPath("population"), .constant(2))
/// let comparison = ComparisonPredicate(doubled, .greaterThan, .constant(100_000))
/// ```
public indirect enum FormatExpression: Sendable, Hashable {
    /// A constant value: a literal, or a value given through `%@`, `%d`, ...
    ///
    /// An aggregate literal whose members are all constants (`{1, 2}`) parses
    /// as a constant list, as does an array given through `%@`.
    case constant(Value)

    /// `SELF`: the object being evaluated.
    case evaluatedObject

    /// `$NAME`: a template variable, bound by `substituting(_:)` or at evaluation.
    /// The name is stored without the `$`.
    case variable(String)

    /// A key path on the evaluated object, with its components joined by dots:
    /// `name`, `address.city`, `tags.@count`, `items.@sum.price`.
    /// `SELF.name` parses as `.keyPath("name")`; `%K` with "a.b" gives `.keyPath("a.b")`.
    case keyPath(String)

    /// A key path applied to the result of another expression: `$city.name`,
    /// `items[FIRST].price`. The path may hold several dotted components.
    case member(FormatExpression, String)

    /// An index into a list or dictionary: `a[0]`, `a[FIRST]`, `a[LAST]`, `a[SIZE]`, `a['key']`.
    case index(FormatExpression, IndexSubscript)

    /// An aggregate `{a, b, c}` with at least one member that is not a constant.
    case aggregate([FormatExpression])

    /// A built-in function call, named by its selector as Apple names it:
    /// `now`, `abs:`, `sum:`, `lowercase:`, `distanceToLocation:fromLocation:`, `tokenize:using:`.
    /// Prints as `now()`, `abs:(x)`, `distanceToLocation:fromLocation:(location, ...)`.
    case function(String, [FormatExpression])

    /// `FUNCTION(target, "name", arguments...)`: a function the caller registers
    /// for evaluation, applied to a target.
    case customFunction(target: FormatExpression, name: String, arguments: [FormatExpression])

    /// Binary arithmetic: `a + b`, `a - b`, `a * b`, `a / b`, `a ** b`.
    case arithmetic(ArithmeticOperator, FormatExpression, FormatExpression)

    /// Unary minus of a non-constant expression: `-a`. (A negative literal is a constant.)
    case negation(FormatExpression)

    /// `SUBQUERY(collection, $variable, predicate)`: the members of the collection
    /// for which the predicate holds, with `$variable` bound to each member.
    /// The variable name is stored without the `$`.
    case subquery(collection: FormatExpression, variable: String, predicate: FormatPredicate)

    /// `TERNARY(predicate, then, else)`.
    case ternary(FormatPredicate, FormatExpression, FormatExpression)

    /// `CAST(expression, "Type")` of an expression that is not a constant.
    /// Types: `NSString`, `NSNumber`, `NSDate`, `NSData`, `CLLocation`, `CKReference`.
    /// (A cast of a constant is folded into a constant when parsed.)
    case cast(FormatExpression, String)
}

/// The subscript of an index expression.
public indirect enum IndexSubscript: Sendable, Hashable {
    /// `[expression]`: a numeric index into a list, or a key into a dictionary.
    case expression(FormatExpression)
    /// `[FIRST]`: the first member.
    case first
    /// `[LAST]`: the last member.
    case last
    /// `[SIZE]`: the number of members.
    case size
}

/// The operator of a binary arithmetic expression.
public enum ArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    /// `+`
    case add
    /// `-`
    case subtract
    /// `*`
    case multiply
    /// `/`
    case divide
    /// `**`
    case power

    /// The operator as it prints.
    public var symbol: String {
        switch self {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        case .power: "**"
        }
    }

    /// Binding strength: `**` binds tighter than `*` and `/`, which bind tighter than `+` and `-`.
    public var precedence: Int {
        switch self {
        case .add, .subtract: 1
        case .multiply, .divide: 2
        case .power: 3
        }
    }
}

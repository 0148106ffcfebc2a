import Foundation
import PredicateLanguage
import RecordStore

extension FormatPredicate {
    /// Converts a Foundation predicate over a model (`#Predicate<Item> { ... }`) into the
    /// predicate language, so that the store runs it (in SQL where it can). Field names come
    /// from the model's ``Queryable/attributeKeyPaths`` table.
    ///
    /// The conversion follows Apple's conversion of `Predicate` to `NSPredicate`: the same
    /// format for the same predicate (`$0.a == 2` is `a == 2`, `$0.b.starts(with: "x")` is
    /// `b BEGINSWITH "x"`, `$0.g.filter { $0 > 1 }.count > 0` is a `SUBQUERY`). Subtrees that
    /// read no model value are evaluated once, at conversion, into constants. An expression with no
    /// counterpart throws ``PredicateConversionError``, naming it.
    ///
    /// ```swift
    /// let predicate = try FormatPredicate(#Predicate<Item> { $0.quantity > 1 && $0.name.starts(with: "A") })
    /// predicate.predicateFormat   // quantity > 1 AND name BEGINSWITH "A"
    /// ```
    public init<Model: Queryable>(_ predicate: Predicate<Model>) throws(PredicateConversionError) {
        var conversion = PredicateConversion(model: Model.self, variable: predicate.variable.key)
        self = try conversion.predicate(predicate.expression)
    }
}

/// One conversion of a Foundation predicate: the expressions its variables stand for (the model,
/// then each closure's local variable), and how key paths of the model become field names.
struct PredicateConversion {
    /// A converted part: a value (an expression) or a condition (a predicate).
    enum Part {
        case expression(FormatExpression)
        case predicate(FormatPredicate)
    }

    private var variables: [PredicateExpressions.VariableID: FormatExpression]
    private var nextLocalVariable = 1
    /// The model's field name for a key path from the model, or nil.
    private let fieldName: (AnyKeyPath) -> String?
    let modelName: String

    init<Model: Queryable>(model: Model.Type, variable: PredicateExpressions.VariableID) {
        variables = [variable: .evaluatedObject]
        let table = Model.attributeKeyPaths
        fieldName = { keyPath in
            guard let partial = keyPath as? PartialKeyPath<Model>, let attribute = table[partial] else { return nil }
            return Model.fieldName(for: attribute)
        }
        modelName = String(describing: Model.self)
    }

    // MARK: Variables

    subscript(_ variable: PredicateExpressions.VariableID) -> FormatExpression? {
        get { variables[variable] }
        set { variables[variable] = newValue }
    }

    /// A closure's variable as a predicate language variable (`$_local_1`, as Apple names them).
    mutating func makeLocalVariable(for variable: PredicateExpressions.VariableID) -> String {
        let name = "_local_\(nextLocalVariable)"
        nextLocalVariable += 1
        variables[variable] = .variable(name)
        return name
    }

    /// The field a key path from the model names, or nil.
    func field(_ keyPath: AnyKeyPath) -> String? { fieldName(keyPath) }

    // MARK: Converting

    /// Converts any expression: a convertible one by its rule; any other that reads no variable
    /// is evaluated into a constant.
    mutating func part(_ expression: any PredicateExpression) throws(PredicateConversionError) -> Part {
        var failure: PredicateConversionError?
        if let convertible = expression as? any FormatConvertibleExpression {
            do {
                return try convertible.convert(&self)
            } catch {
                failure = error
            }
        }
        if let folded = Self.folded(expression) { return .expression(.constant(folded)) }
        throw failure ?? .unsupportedExpression(Self.name(of: expression))
    }

    /// A subtree's value when it reads no variable, as a stored value; nil otherwise.
    private static func folded(_ expression: any PredicateExpression) -> Value? {
        guard let value = try? evaluate(expression) else { return nil }
        return try? constant(value)
    }

    private static func evaluate<E: PredicateExpression>(_ expression: E) throws -> Any {
        try expression.evaluate(PredicateBindings())
    }

    mutating func expression(_ expression: any PredicateExpression) throws(PredicateConversionError) -> FormatExpression {
        switch try part(expression) {
        case .expression(let value): value
        case .predicate(let condition): Self.asExpression(condition)
        }
    }

    mutating func predicate(_ expression: any PredicateExpression) throws(PredicateConversionError) -> FormatPredicate {
        switch try part(expression) {
        case .expression(let value): Self.asPredicate(value)
        case .predicate(let condition): condition
        }
    }

    /// A condition used as a value: `TERNARY(condition, YES, NO)`.
    static func asExpression(_ predicate: FormatPredicate) -> FormatExpression {
        .ternary(predicate, .constant(.bool(true)), .constant(.bool(false)))
    }

    /// A Boolean value used as a condition: `value == YES`.
    static func asPredicate(_ expression: FormatExpression) -> FormatPredicate {
        .comparison(ComparisonPredicate(expression, .equalTo, .constant(.bool(true))))
    }

    static func comparison(_ left: FormatExpression, _ op: ComparisonOperator, _ right: FormatExpression, options: ComparisonOptions = []) -> FormatPredicate {
        .comparison(ComparisonPredicate(left, op, right, options: options))
    }

    /// `base.name`: a key path appended to a key path, or a member of another expression.
    static func member(_ base: FormatExpression, _ name: String) -> FormatExpression {
        switch base {
        case .keyPath(let path): .keyPath(path + "." + name)
        default: .member(base, name)
        }
    }

    /// The type name of an expression, for errors.
    static func name(of expression: any PredicateExpression) -> String {
        String(describing: type(of: expression))
    }

    // MARK: Constants

    /// A Swift value as a stored value: the scalars models hold (as ``RecordEncoder`` stores them),
    /// nil, sequences (lists) and closed ranges (their two bounds, for `BETWEEN`).
    static func constant(_ value: Any) throws(PredicateConversionError) -> Value {
        switch value {
        case Optional<Any>.none:
            return .null
        case let value as Value:
            return value
        case let date as Date:
            return .date(date)
        case let data as Data:
            return .bytes(data)
        case let uuid as UUID:
            return .string(uuid.uuidString)
        case let url as URL:
            return .string(url.absoluteString)
        case let character as Character:
            return .string(String(character))
        case let substring as Substring:
            return .string(String(substring))
        case let location as Location:
            return .location(location)
        case let result as ComparisonResult:
            return .int(Int64(result.rawValue))
        default:
            break
        }
        if let primitive = try? ValueEncoder.primitiveValue(value, recordType: "", path: []) { return primitive }
        if let range = value as? any ClosedRangeBounds { return .list([try constant(range.lowerBoundValue), try constant(range.upperBoundValue)]) }
        if let sequence = value as? any Sequence {
            var members: [Value] = []
            for member in sequence { members.append(try constant(member)) }
            return .list(members)
        }
        throw .unsupportedConstant(String(describing: type(of: value)))
    }
}

/// A closed range's bounds, read without knowing its type.
protocol ClosedRangeBounds {
    var lowerBoundValue: Any { get }
    var upperBoundValue: Any { get }
}

extension ClosedRange: ClosedRangeBounds {
    var lowerBoundValue: Any { lowerBound }
    var upperBoundValue: Any { upperBound }
}

/// An expression of Foundation's predicate tree with a rule of conversion.
protocol FormatConvertibleExpression: PredicateExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part
}

/// A key path split into its components once, at compile time: keys, `SELF` (identity),
/// collection operators, collection properties and, in a member access, variables (`$a.$b`).
///
/// A key reaches what ``KeyValueCoding`` says: an object's member (`.null` when missing), the
/// list of what the key reaches on each member of a list (`items.price` is the list of prices),
/// or a property of a string, number or date (`name.length`); anything else gives `.null`.
struct CompiledKeyPath: Sendable {
    enum Step: Sendable {
        case key(String)
        case identity
        case collectionOperator(CollectionOperator)
        case collectionProperty(CollectionProperty)
        /// `$name`: the key is the variable's value, a string, looked up at evaluation.
        case variable(String)
    }

    let path: String
    let steps: [Step]

    /// Splits a dotted path; throws `FormatPredicateError.evaluation` on an empty component
    /// or an unknown collection operator. With `allowsVariables`, a `$name` component is a
    /// variable (in a member access); otherwise it is a plain key (a key given through `%K`).
    init(_ path: String, allowsVariables: Bool = false) throws(FormatPredicateError) {
        self.path = path
        var steps: [Step] = []
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            let name = String(component)
            if name.isEmpty {
                throw FormatPredicateError.evaluation("the key path \"\(path)\" has an empty component")
            }
            if name.hasPrefix("@") {
                if let collectionOperator = CollectionOperator(rawValue: name) {
                    steps.append(.collectionOperator(collectionOperator))
                } else if let property = CollectionProperty(rawValue: name) {
                    steps.append(.collectionProperty(property))
                } else {
                    throw CollectionOperator.unknownOperatorError(name, in: path)
                }
            } else if name == "SELF" || name == "self" {
                steps.append(.identity)
            } else if allowsVariables, let variable = VariableComponent.name(of: component) {
                steps.append(.variable(variable))
            } else {
                steps.append(.key(name))
            }
        }
        self.steps = steps
    }

    /// The only key, when the path is one plain key.
    var singleKey: String? {
        if steps.count == 1, case .key(let key) = steps[0] { return key }
        return nil
    }

    /// Whether the path holds a collection operator that visits members (all but `@count`),
    /// which count as evaluation steps.
    var hasCollectionOperator: Bool {
        steps.contains { if case .collectionOperator(let collectionOperator) = $0 { !collectionOperator.ignoresRest } else { false } }
    }

    /// Whether the path holds a variable component.
    var hasVariables: Bool {
        steps.contains { if case .variable = $0 { true } else { false } }
    }

    /// The path applied to the evaluated object; the members collection operators visit
    /// are spent from `budget`, when given.
    func resolve(fromRoot root: EvaluationRoot, steps budget: EvaluationStepBudget? = nil) throws(FormatPredicateError) -> Value {
        guard let first = steps.first else { return root.evaluatedObjectValue() }
        if case .key(let key) = first {
            return try apply(to: root.value(forKey: key), from: 1, steps: budget)
        }
        return try apply(to: root.evaluatedObjectValue(), from: 0, steps: budget)
    }

    /// The path, from step `index` on, applied to a value; the members collection operators
    /// visit are spent from `budget`, when given; variable components read `variables`.
    func apply(
        to value: Value, from index: Int = 0, steps budget: EvaluationStepBudget? = nil, variables: [String: Value]? = nil
    ) throws(FormatPredicateError) -> Value {
        var current = value
        var position = index
        while position < steps.count {
            switch steps[position] {
            case .key(let key):
                current = Self.lookUp(key, in: current)
            case .identity:
                break
            case .collectionProperty(let property):
                current = property.apply(to: current)
            case .variable(let name):
                current = try Self.variableKeyPath(name, variables: variables, in: path).apply(to: current, steps: budget)
            case .collectionOperator(let collectionOperator):
                if collectionOperator.ignoresRest { return try collectionOperator.apply(to: current) }
                let members = CollectionOperator.members(of: current)
                try budget?.spend(members.count)
                if position + 1 == steps.count {
                    return try collectionOperator.apply(to: current)
                }
                var mapped: [Value] = []
                for member in members {
                    mapped.append(try apply(to: member, from: position + 1, steps: budget, variables: variables))
                }
                return try collectionOperator.apply(to: .list(mapped))
            }
            position += 1
        }
        return current
    }

    /// A key applied to one value (see ``KeyValueCoding``).
    @inline(__always)
    static func lookUp(_ key: String, in value: Value) -> Value {
        if case .object(let fields) = value { return fields[key] ?? .null }
        return KeyValueCoding.value(forKey: key, of: value)
    }

    /// The key path a variable component stands for: its value, which must be a string.
    static func variableKeyPath(_ name: String, variables: [String: Value]?, in path: String) throws(FormatPredicateError)
        -> CompiledKeyPath
    {
        guard let value = variables?[name] else { throw FormatPredicateError.unboundVariable(name) }
        guard case .string(let key) = value, VariableComponent.isUsableKey(key) else {
            throw FormatPredicateError.evaluation(
                "the variable $\(name) is used as a key in the key path \"\(path)\", so its value must be a non-empty "
                    + "string naming a key, but it is \(value.typeName == "integer" ? "an" : "a") \(value.typeName) (\(value.formatLiteral))")
        }
        return try CompiledKeyPath(key)
    }
}

/// A key path split into its components once, at compile time: keys, `SELF`
/// (identity) and collection operators.
///
/// Applying a key to an object looks it up (`.null` when missing); applying a
/// key to a list maps it over the members (`items.price` is the list of prices);
/// applying a key to anything else gives `.null`.
struct CompiledKeyPath: Sendable {
    enum Step: Sendable {
        case key(String)
        case identity
        case collectionOperator(CollectionOperator)
    }

    let path: String
    let steps: [Step]

    /// Splits a dotted path; throws `FormatPredicateError.evaluation` on an empty component
    /// or an unknown collection operator.
    init(_ path: String) throws(FormatPredicateError) {
        self.path = path
        var steps: [Step] = []
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            let name = String(component)
            if name.isEmpty {
                throw FormatPredicateError.evaluation("the key path \"\(path)\" has an empty component")
            }
            if name.hasPrefix("@") {
                guard let collectionOperator = CollectionOperator(rawValue: name) else {
                    throw FormatPredicateError.evaluation(
                        "unknown collection operator \(name) in the key path \"\(path)\"; use one of "
                            + CollectionOperator.allCases.map(\.rawValue).joined(separator: ", "))
                }
                steps.append(.collectionOperator(collectionOperator))
            } else if name == "SELF" || name == "self" {
                steps.append(.identity)
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

    /// The path applied to the evaluated object; the members collection operators visit
    /// are spent from `budget`, when given.
    func resolve(fromRoot root: any KeyValueReadable, steps budget: EvaluationStepBudget? = nil) throws(FormatPredicateError) -> Value {
        guard let first = steps.first else { return root.evaluatedObjectValue() }
        if case .key(let key) = first {
            return try apply(to: root.value(forKey: key), from: 1, steps: budget)
        }
        return try apply(to: root.evaluatedObjectValue(), from: 0, steps: budget)
    }

    /// The path, from step `index` on, applied to a value; the members collection operators
    /// visit are spent from `budget`, when given.
    func apply(to value: Value, from index: Int = 0, steps budget: EvaluationStepBudget? = nil) throws(FormatPredicateError) -> Value {
        var current = value
        var position = index
        while position < steps.count {
            switch steps[position] {
            case .key(let key):
                current = Self.lookUp(key, in: current)
            case .identity:
                break
            case .collectionOperator(let collectionOperator):
                if collectionOperator.ignoresRest { return try collectionOperator.apply(to: current) }
                let members = CollectionOperator.members(of: current)
                try budget?.spend(members.count)
                if position + 1 == steps.count {
                    return try collectionOperator.apply(to: current)
                }
                var mapped: [Value] = []
                for member in members {
                    mapped.append(try apply(to: member, from: position + 1, steps: budget))
                }
                return try collectionOperator.apply(to: .list(mapped))
            }
            position += 1
        }
        return current
    }

    /// A key applied to one value.
    static func lookUp(_ key: String, in value: Value) -> Value {
        switch value {
        case .object(let fields): fields[key] ?? .null
        case .list(let members): .list(members.map { lookUp(key, in: $0) })
        default: .null
        }
    }
}

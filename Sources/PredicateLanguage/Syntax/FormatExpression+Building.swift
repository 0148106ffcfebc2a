extension FormatExpression {
    /// Appends a key to an expression: `a` + `b` is the key path `a.b`, `SELF` + `a` is `a`,
    /// `$x.a` + `b` is `$x.a.b`, anything else gets a member access. A variable component (`$b`)
    /// never merges into a key path: `a.$b` is a member access of `a`.
    static func appendingKey(_ base: FormatExpression, _ key: String, merging: Bool) -> FormatExpression {
        let isVariableComponent = key.utf8.first == UInt8(ascii: "$")
        if merging, !isVariableComponent {
            switch base {
            case .keyPath(let path): return .keyPath(path + "." + key)
            case .evaluatedObject: return .keyPath(key)
            case .member(let inner, let path): return .member(inner, path + "." + key)
            default: break
            }
        }
        if merging, isVariableComponent, case .member(let inner, let path) = base {
            return .member(inner, path + "." + key)
        }
        return .member(base, key)
    }

    /// A constant list when every member is a constant, an aggregate otherwise.
    static func aggregateOrList(_ members: [FormatExpression]) -> FormatExpression {
        var values: [Value] = []
        values.reserveCapacity(members.count)
        for member in members {
            guard case .constant(let value) = member else { return .aggregate(members) }
            values.append(value)
        }
        return .constant(.list(values))
    }
}

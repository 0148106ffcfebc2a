/// Binding `$VARIABLE`s to values, and listing them.
extension FormatPredicate {
    /// The predicate with every free `$NAME` found in `variables` replaced by its value
    /// as a constant (a null by ``FormatExpression/nullValue``, printed `<null>` as Apple prints
    /// `NSNull`); variables not in the dictionary stay in place. A variable used as a key-path
    /// component (`$a.$b`) is replaced by its value when that is a string, and becomes part of the
    /// key path. A `SUBQUERY`'s own variable is never replaced inside its predicate.
    ///
    /// ```swift
    /// let template = try FormatPredicate(format: "age > $minimum AND name == $name")
    /// let bound = template.substituting(["minimum": 18])
    /// // age > 18 AND name == $name
    /// ```
    public func substituting(_ variables: [String: Value]) -> FormatPredicate {
        if variables.isEmpty { return self }
        return VariableSubstitution(values: variables).predicate(self, bound: [])
    }

    /// The names (without `$`) of the free variables of the predicate: every `$NAME`
    /// except those bound by an enclosing `SUBQUERY`.
    ///
    /// ```swift
    /// try FormatPredicate(format: "age > $minimum AND SUBQUERY(items, $x, $x.price > $limit).@count > 0")
    ///     .variableNames   // ["minimum", "limit"]
    /// ```
    public var variableNames: Set<String> {
        var names: Set<String> = []
        VariableCollection.predicate(self, bound: [], into: &names)
        return names
    }
}

extension FormatExpression {
    /// The expression with every free `$NAME` found in `variables` replaced by its value.
    ///
    /// ```swift
    /// try FormatExpression(format: "$rate * price").substituting(["rate": 2])
    /// // 2 * price
    /// ```
    public func substituting(_ variables: [String: Value]) -> FormatExpression {
        if variables.isEmpty { return self }
        return VariableSubstitution(values: variables).expression(self, bound: [])
    }

    /// The names (without `$`) of the free variables of the expression.
    ///
    /// ```swift
    /// try FormatExpression(format: "$rate * price").variableNames   // ["rate"]
    /// ```
    public var variableNames: Set<String> {
        var names: Set<String> = []
        VariableCollection.expression(self, bound: [], into: &names)
        return names
    }
}

/// Replaces free variables by constants throughout a tree.
private struct VariableSubstitution {
    let values: [String: Value]

    func predicate(_ predicate: FormatPredicate, bound: Set<String>) -> FormatPredicate {
        switch predicate {
        case .constant:
            return predicate
        case .comparison(var comparison):
            comparison.left = expression(comparison.left, bound: bound)
            comparison.right = expression(comparison.right, bound: bound)
            return .comparison(comparison)
        case .and(let members):
            return .and(members.map { self.predicate($0, bound: bound) })
        case .or(let members):
            return .or(members.map { self.predicate($0, bound: bound) })
        case .not(let inner):
            return .not(self.predicate(inner, bound: bound))
        }
    }

    func expression(_ expression: FormatExpression, bound: Set<String>) -> FormatExpression {
        switch expression {
        case .constant, .evaluatedObject, .keyPath:
            return expression
        case .variable(let name):
            guard !bound.contains(name), let value = values[name] else { return expression }
            return value.isNull ? .nullValue : .constant(value)
        case .member(let base, let path):
            return member(self.expression(base, bound: bound), path, bound: bound)
        case .index(let base, let indexSubscript):
            let newSubscript: IndexSubscript =
                if case .expression(let inner) = indexSubscript { .expression(self.expression(inner, bound: bound)) } else { indexSubscript }
            return .index(self.expression(base, bound: bound), newSubscript)
        case .aggregate(let members):
            return FormatExpression.aggregateOrList(members.map { self.expression($0, bound: bound) })
        case .function(let name, let arguments):
            return .function(name, arguments.map { self.expression($0, bound: bound) })
        case .customFunction(let target, let name, let arguments):
            return .customFunction(
                target: self.expression(target, bound: bound), name: name,
                arguments: arguments.map { self.expression($0, bound: bound) })
        case .arithmetic(let arithmeticOperator, let left, let right):
            return .arithmetic(arithmeticOperator, self.expression(left, bound: bound), self.expression(right, bound: bound))
        case .negation(let inner):
            return .negation(self.expression(inner, bound: bound))
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: self.expression(collection, bound: bound), variable: variable,
                predicate: self.predicate(predicate, bound: bound.union([variable])))
        case .ternary(let condition, let whenTrue, let whenFalse):
            return .ternary(
                self.predicate(condition, bound: bound), self.expression(whenTrue, bound: bound),
                self.expression(whenFalse, bound: bound))
        case .cast(let operand, let type):
            return .cast(self.expression(operand, bound: bound), type)
        }
    }
}

extension VariableSubstitution {
    /// `base.path` with each variable component (`$b`) bound to a string replaced by that
    /// string; the result merges into a key path as the parser would (`SELF.a` is `a`, `a.b` one key path).
    func member(_ base: FormatExpression, _ path: String, bound: Set<String>) -> FormatExpression {
        guard path.utf8.contains(UInt8(ascii: "$")) else { return .member(base, path) }
        var result = base
        var isFirst = true
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            var key = String(component)
            if let name = VariableComponent.name(of: component), !bound.contains(name),
                case .string(let text)? = values[name], VariableComponent.isUsableKey(text)
            {
                key = text
            }
            result = isFirst ? .member(result, key) : FormatExpression.appendingKey(result, key, merging: true)
            if isFirst, let merged = VariableComponent.merged(result) { result = merged }
            isFirst = false
        }
        return result
    }
}

/// Collects the free variables of a tree.
private enum VariableCollection {
    static func predicate(_ predicate: FormatPredicate, bound: Set<String>, into names: inout Set<String>) {
        switch predicate {
        case .constant:
            break
        case .comparison(let comparison):
            expression(comparison.left, bound: bound, into: &names)
            expression(comparison.right, bound: bound, into: &names)
        case .and(let members), .or(let members):
            for member in members { self.predicate(member, bound: bound, into: &names) }
        case .not(let inner):
            self.predicate(inner, bound: bound, into: &names)
        }
    }

    static func expression(_ expression: FormatExpression, bound: Set<String>, into names: inout Set<String>) {
        switch expression {
        case .constant, .evaluatedObject, .keyPath:
            break
        case .variable(let name):
            if !bound.contains(name) { names.insert(name) }
        case .member(let base, let path):
            self.expression(base, bound: bound, into: &names)
            for component in path.split(separator: ".") {
                if let name = VariableComponent.name(of: component), !bound.contains(name) { names.insert(name) }
            }
        case .negation(let base), .cast(let base, _):
            self.expression(base, bound: bound, into: &names)
        case .index(let base, let indexSubscript):
            self.expression(base, bound: bound, into: &names)
            if case .expression(let inner) = indexSubscript { self.expression(inner, bound: bound, into: &names) }
        case .aggregate(let members), .function(_, let members):
            for member in members { self.expression(member, bound: bound, into: &names) }
        case .customFunction(let target, _, let arguments):
            self.expression(target, bound: bound, into: &names)
            for argument in arguments { self.expression(argument, bound: bound, into: &names) }
        case .arithmetic(_, let left, let right):
            self.expression(left, bound: bound, into: &names)
            self.expression(right, bound: bound, into: &names)
        case .subquery(let collection, let variable, let predicate):
            self.expression(collection, bound: bound, into: &names)
            self.predicate(predicate, bound: bound.union([variable]), into: &names)
        case .ternary(let condition, let whenTrue, let whenFalse):
            self.predicate(condition, bound: bound, into: &names)
            self.expression(whenTrue, bound: bound, into: &names)
            self.expression(whenFalse, bound: bound, into: &names)
        }
    }
}

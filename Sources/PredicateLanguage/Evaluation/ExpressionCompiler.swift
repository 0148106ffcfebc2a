import Foundation

/// Turns a `FormatExpression` into a closure, once: key paths are split, function
/// names and cast types checked, and constants captured as they are.
enum ExpressionCompiler {
    /// With a `layout`, the keys read from `SELF` are resolved to its field readers (the closures
    /// then run only on objects of the layout's type).
    static func compile(_ expression: FormatExpression, options: EvaluationOptions, layout: CompiledFieldLayout?) throws(FormatPredicateError) -> ExpressionClosure {
        switch expression {
        case .constant(let value):
            return { _ in value }

        case .evaluatedObject:
            return { context in context.root.evaluatedObjectValue() }

        case .variable(let name):
            return { context throws(FormatPredicateError) in try context.variable(name) }

        case .keyPath(let path):
            let keyPath = try CompiledKeyPath(path)
            if let key = keyPath.singleKey {
                if let reader = layout?.reader(key) {
                    return { context in context.root.value(forKey: key, reader: reader) }
                }
                return { context in context.root.value(forKey: key) }
            }
            if case .key(let first)? = keyPath.steps.first, let reader = layout?.reader(first) {
                // What resolve(fromRoot:) does, with the first key read through the layout.
                if keyPath.hasCollectionOperator {
                    return { context throws(FormatPredicateError) in
                        try keyPath.apply(to: context.root.value(forKey: first, reader: reader), from: 1, steps: context.steps)
                    }
                }
                return { context throws(FormatPredicateError) in
                    try keyPath.apply(to: context.root.value(forKey: first, reader: reader), from: 1)
                }
            }
            if keyPath.hasCollectionOperator {
                return { context throws(FormatPredicateError) in try keyPath.resolve(fromRoot: context.root, steps: context.steps) }
            }
            return { context throws(FormatPredicateError) in try keyPath.resolve(fromRoot: context.root) }

        case .member(let base, let path):
            let keyPath = try CompiledKeyPath(path, allowsVariables: true)
            if case .evaluatedObject = base, !keyPath.hasVariables {
                return try compile(.keyPath(path), options: options, layout: layout)
            }
            let baseValue = try compile(base, options: options, layout: layout)
            if keyPath.hasVariables {
                return { context throws(FormatPredicateError) in
                    try keyPath.apply(to: baseValue(context), steps: context.steps, variables: context.variables)
                }
            }
            if keyPath.hasCollectionOperator {
                return { context throws(FormatPredicateError) in try keyPath.apply(to: baseValue(context), steps: context.steps) }
            }
            return { context throws(FormatPredicateError) in try keyPath.apply(to: baseValue(context)) }

        case .index(let base, let subscriptKind):
            return try compileIndex(base, subscriptKind, options: options, layout: layout)

        case .aggregate(let members):
            var compiledMembers: [CompiledExpressionOperand] = []
            for member in members { compiledMembers.append(CompiledExpressionOperand(compute: try compile(member, options: options, layout: layout))) }
            let compiled = compiledMembers
            return { context throws(FormatPredicateError) in
                var values: [Value] = []
                values.reserveCapacity(compiled.count)
                for member in compiled { values.append(try member.compute(context)) }
                return .list(values)
            }

        case .function(let name, let arguments):
            guard let function = BuiltinFunction.named(name) else {
                throw FormatPredicateError.evaluation(
                    "there is no built-in function named \(name); register it in EvaluationOptions.functions and call it with FUNCTION(...)")
            }
            guard arguments.count >= function.arity else {
                throw FormatPredicateError.evaluation(
                    "\(name) takes \(function.arity) argument\(function.arity == 1 ? "" : "s"), but is given \(arguments.count)")
            }
            var compiledArguments: [CompiledExpressionOperand] = []
            // Apple's functions read the arguments they need and ignore the rest: extras are not evaluated.
            for argument in arguments.prefix(function.arity) {
                compiledArguments.append(CompiledExpressionOperand(compute: try compile(argument, options: options, layout: layout)))
            }
            let compiled = compiledArguments
            return { context throws(FormatPredicateError) in
                var values: [Value] = []
                values.reserveCapacity(compiled.count)
                for argument in compiled { values.append(try argument.compute(context)) }
                return try BuiltinFunctionEvaluator.call(name, values, options: options)
            }

        case .customFunction(let target, let name, let arguments):
            let compiledTarget = try compile(target, options: options, layout: layout)
            var compiledArguments: [CompiledExpressionOperand] = []
            for argument in arguments { compiledArguments.append(CompiledExpressionOperand(compute: try compile(argument, options: options, layout: layout))) }
            let compiled = compiledArguments
            return { context throws(FormatPredicateError) in
                var values: [Value] = [try compiledTarget(context)]
                for argument in compiled { values.append(try argument.compute(context)) }
                guard let function = options.functions[name] else {
                    // No function of that name: the message is sent to the receiver, as Apple does.
                    if let answer = try MessageSend.send(name, to: values[0], arguments: Array(values.dropFirst())) { return answer }
                    throw FormatPredicateError.evaluation(
                        "no function named \"\(name)\" is registered; add it to EvaluationOptions.functions")
                }
                do {
                    return try function(values)
                } catch let error as FormatPredicateError {
                    throw error
                } catch {
                    throw FormatPredicateError.evaluation("the function \"\(name)\" failed: \(error)")
                }
            }

        case .arithmetic(let arithmeticOperator, let left, let right):
            let compiledLeft = try compile(left, options: options, layout: layout)
            let compiledRight = try compile(right, options: options, layout: layout)
            return { context throws(FormatPredicateError) in
                try Arithmetic.apply(arithmeticOperator, compiledLeft(context), compiledRight(context), describing: { expression.expressionFormat })
            }

        case .negation(let operand):
            let compiled = try compile(operand, options: options, layout: layout)
            return { context throws(FormatPredicateError) in try Arithmetic.negate(compiled(context), describing: { expression.expressionFormat }) }

        case .subquery(let collection, let variable, let predicate):
            let compiledCollection = try compile(collection, options: options, layout: layout)
            let compiledPredicate = try PredicateCompiler.compile(predicate, options: options, layout: layout)
            return { context throws(FormatPredicateError) in
                let members = CollectionOperator.members(of: try compiledCollection(context))
                try context.steps.spend(members.count)
                var inner = context
                var selected: [Value] = []
                for member in members {
                    inner.variables[variable] = member
                    if try compiledPredicate(inner) { selected.append(member) }
                }
                return .list(selected)
            }

        case .ternary(let condition, let whenTrue, let whenFalse):
            let compiledCondition = try PredicateCompiler.compile(condition, options: options, layout: layout)
            let compiledTrue = try compile(whenTrue, options: options, layout: layout)
            let compiledFalse = try compile(whenFalse, options: options, layout: layout)
            return { context throws(FormatPredicateError) in
                try compiledCondition(context) ? compiledTrue(context) : compiledFalse(context)
            }

        case .cast(.constant(.null), FormatExpression.nullValueTypeName):
            // A null that arrived as a value (printed `<null>`).
            return { _ in .null }

        case .cast(let operand, let typeName):
            guard ValueCast.typeNames.contains(typeName) else {
                throw FormatPredicateError.evaluation(
                    "CAST to \"\(typeName)\" is not supported; use one of NSString, NSNumber, NSDate, NSData, CLLocation, CKReference")
            }
            let compiled = try compile(operand, options: options, layout: layout)
            return { context throws(FormatPredicateError) in try ValueCast.cast(compiled(context), to: typeName) }
        }
    }

    /// `[n]` on a list (out of range: nil), a key on an object, `[FIRST]`, `[LAST]`, `[SIZE]`.
    static func compileIndex(
        _ base: FormatExpression, _ subscriptKind: IndexSubscript, options: EvaluationOptions, layout: CompiledFieldLayout?
    ) throws(FormatPredicateError) -> ExpressionClosure {
        let compiledBase = try compile(base, options: options, layout: layout)
        switch subscriptKind {
        case .first:
            return { context throws(FormatPredicateError) in
                if case .list(let members) = try compiledBase(context) { return members.first ?? .null }
                return .null
            }
        case .last:
            return { context throws(FormatPredicateError) in
                if case .list(let members) = try compiledBase(context) { return members.last ?? .null }
                return .null
            }
        case .size:
            return { context throws(FormatPredicateError) in
                switch try compiledBase(context) {
                case .list(let members): return .int(Int64(members.count))
                case .object(let fields): return .int(Int64(fields.count))
                case .null: return .int(0)
                default: return .null
                }
            }
        case .expression(let indexExpression):
            let compiledIndex = try compile(indexExpression, options: options, layout: layout)
            return { context throws(FormatPredicateError) in
                let container = try compiledBase(context)
                let index = try compiledIndex(context)
                return element(of: container, at: index)
            }
        }
    }

    /// One member of a list by position, or one value of an object by key.
    static func element(of container: Value, at index: Value) -> Value {
        switch (container, index) {
        case (.list(let members), _):
            let position: Int64?
            switch index {
            case .int(let value): position = value
            case .double(let value): position = Int64(exactly: value)
            default: position = nil
            }
            guard let position, position >= 0, position < Int64(members.count) else { return .null }
            return members[Int(position)]
        case (.object(let fields), .string(let key)):
            return fields[key] ?? .null
        default:
            return .null
        }
    }
}

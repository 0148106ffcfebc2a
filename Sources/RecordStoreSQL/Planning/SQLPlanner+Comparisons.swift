import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

extension SQLPlanner {
    /// A comparison of a column with a constant that SQL does natively with the evaluator's
    /// meaning, or nil: numbers by value, dates in time, strings equal by code points or
    /// ordered by them, nil tests, `BETWEEN` and `IN`, all without options.
    @_spi(StorageEngine) public func nativeCondition(_ comparison: ComparisonPredicate, key: String, column: String, type: FieldType) -> SQLCondition? {
        guard comparison.options.isEmpty else { return nil }
        var operation = comparison.operator
        let operand: Value
        switch (comparison.left, comparison.right) {
        case (.keyPath(key), .constant(let value)):
            operand = value
        case (.constant(let value), .keyPath(key)):
            operand = value
            switch operation {
            case .lessThan: operation = .greaterThan
            case .lessThanOrEqualTo: operation = .greaterThanOrEqualTo
            case .greaterThan: operation = .lessThan
            case .greaterThanOrEqualTo: operation = .lessThanOrEqualTo
            case .equalTo, .notEqualTo: break
            default: return nil
            }
        default:
            return nil
        }
        if operand.isNull {
            switch operation {
            case .equalTo: return .exact("\(column) IS NULL")
            case .notEqualTo: return .exact("\(column) IS NOT NULL")
            default: return nil
            }
        }
        if type == .int64, case .double(let double) = operand, double.isFinite, double.rounded(.down) != double,
           let floor = Int64(exactly: double.rounded(.down)) {
            // An integer never equals a fraction, and orders against it as against its floor:
            // `j <= 5.5` is `j <= 5`, `j > 5.5` is `j > 5`, exactly, with the index.
            switch operation {
            case .equalTo: return constant(false)
            case .notEqualTo: return constant(true)
            case .lessThan, .lessThanOrEqualTo: return nativeCondition(
                ComparisonPredicate(.keyPath(key), .lessThanOrEqualTo, .constant(.int(floor))), key: key, column: column, type: type)
            case .greaterThan, .greaterThanOrEqualTo: return nativeCondition(
                ComparisonPredicate(.keyPath(key), .greaterThan, .constant(.int(floor))), key: key, column: column, type: type)
            default: break
            }
        }
        // Strings order by code points, whatever the database's default collation; booleans
        // compare as the numbers 0 and 1.
        let column = type == .bool ? dialect.booleanAsNumber(column) : column
        let ordered = type == .string ? dialect.codePointOrder(column) : column
        switch operation {
        case .equalTo:
            guard let argument = nativeArgument(operand, fieldType: type) else { return nil }
            return .exact("(\(column) IS NOT NULL AND \(column) = ?)", [argument])
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            // Stored strings and their constants are in NFC (StoredValueEncoding), and the
            // evaluator orders the NFC forms.
            guard let argument = nativeArgument(operand, fieldType: type) else { return nil }
            return .exact("(\(column) IS NOT NULL AND \(ordered) \(operation.symbol) ?)", [argument])
        case .notEqualTo:
            guard let argument = nativeArgument(operand, fieldType: type) else { return nil }
            return .exact("(\(column) IS NULL OR \(column) <> ?)", [argument])
        case .between:
            guard case .list(let bounds) = operand, bounds.count == 2,
                  let lower = nativeArgument(bounds[0], fieldType: type),
                  let upper = nativeArgument(bounds[1], fieldType: type) else { return nil }
            return .exact("(\(column) IS NOT NULL AND \(ordered) BETWEEN ? AND ?)", [lower, upper])
        case .in:
            guard case .list(let members) = operand else { return nil }
            var arguments: [SQLValue] = []
            for member in members {
                guard let argument = nativeArgument(member, fieldType: type) else { return nil }
                arguments.append(argument)
            }
            if arguments.isEmpty { return constant(false) }
            let placeholders = Array(repeating: "?", count: arguments.count).joined(separator: ", ")
            return .exact("(\(column) IS NOT NULL AND \(column) IN (\(placeholders)))", arguments)
        default:
            return nil
        }
    }

    /// The stored form of a constant compared with a field of the type, when SQL compares the
    /// two exactly as the evaluator does and the database binds it exactly; nil otherwise.
    @_spi(StorageEngine) public func nativeArgument(_ constant: Value, fieldType: FieldType) -> SQLValue? {
        guard let argument = StoredValueEncoding.nativeArgument(constant, fieldType: fieldType),
              dialect.bindsExactly(argument) else { return nil }
        return argument
    }
}

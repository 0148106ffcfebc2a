import PredicateLanguage

/// Core Data's `entity` key path in predicates: `entity.name == "Manager"`, or `entity == "Manager"`
/// (where Core Data compares the `NSEntityDescription`, which a format string can only name),
/// is the record's own record type. A record type with a field named `entity` keeps its field.
///
/// Each comparison of the key path with constants is decided for one record type at a time
/// (``resolved(_:recordType:)``), before the query reaches an engine: it becomes
/// `TRUEPREDICATE` or `FALSEPREDICATE`, so that SQL, the evaluator and live queries agree.
/// Elsewhere (inside a `SUBQUERY`, an arithmetic expression) the key path is not known and the
/// engine reports an unknown field.
///
/// ```swift
/// let predicate = try FormatPredicate(format: "entity.name == 'Manager' AND salary > 10")
/// EntityKeyPath.resolved(predicate, recordType: "Manager")   // TRUEPREDICATE AND salary > 10
/// ```
@_spi(StorageEngine) public enum EntityKeyPath {
    /// The key paths that name the record's entity.
    static let keyPaths: Set<String> = ["entity", "entity.name"]

    /// Whether a key path is the entity key path for a record type (one without a field named `entity`).
    ///
    /// ```swift
    /// EntityKeyPath.names("entity.name", in: person)   // true
    /// ```
    @_spi(StorageEngine) public static func names(_ path: String, in schema: RecordTypeSchema) -> Bool {
        keyPaths.contains(path) && schema.field(named: "entity") == nil
    }

    /// Whether a predicate names the entity key path (and the type has no field named `entity`).
    ///
    /// ```swift
    /// EntityKeyPath.isNamed(in: try FormatPredicate(format: "entity.name == 'A'"), schema: nil)   // true
    /// ```
    @_spi(StorageEngine) public static func isNamed(in predicate: FormatPredicate, schema: RecordTypeSchema?) -> Bool {
        guard schema?.field(named: "entity") == nil else { return false }
        return predicate.containsExpression { expression in
            if case .keyPath(let path) = expression { keyPaths.contains(path) } else { false }
        }
    }

    /// The predicate with each comparison of the entity key path with constants decided for a
    /// record of `recordType`.
    ///
    /// ```swift
    /// EntityKeyPath.resolved(try FormatPredicate(format: "entity.name IN {'A', 'B'}"), recordType: "C")   // FALSEPREDICATE
    /// ```
    @_spi(StorageEngine) public static func resolved(_ predicate: FormatPredicate, recordType: String) -> FormatPredicate {
        switch predicate {
        case .constant:
            return predicate
        case .and(let members):
            return .and(members.map { resolved($0, recordType: recordType) })
        case .or(let members):
            return .or(members.map { resolved($0, recordType: recordType) })
        case .not(let inner):
            return .not(resolved(inner, recordType: recordType))
        case .comparison(var comparison):
            let name = FormatExpression.constant(.string(recordType))
            var replaced = false
            if case .keyPath(let path) = comparison.left, keyPaths.contains(path) { comparison.left = name; replaced = true }
            if case .keyPath(let path) = comparison.right, keyPaths.contains(path) { comparison.right = name; replaced = true }
            guard replaced, isConstant(comparison.left), isConstant(comparison.right) else { return predicate }
            guard let decided = try? CompiledPredicate(.comparison(comparison)).evaluate([String: Value]()) else { return predicate }
            return .constant(decided)
        }
    }

    /// Whether an expression is a constant or an aggregate of constants.
    private static func isConstant(_ expression: FormatExpression) -> Bool {
        switch expression {
        case .constant: true
        case .aggregate(let members): members.allSatisfy(isConstant)
        default: false
        }
    }
}

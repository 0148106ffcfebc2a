import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// Turns a query (``QuerySpecification``) into SQL plus a residual predicate: an ``SQLPlan``.
///
/// SQL gets what it can do exactly as the evaluator does: comparisons of a field (or metadata)
/// with constants where the stored form compares like the value (numbers, dates, code-point
/// string order, equality), `IN` lists, `BETWEEN`, nil tests, `ANY`/`IN`/`CONTAINS` on lists
/// through the list table, and `AND`/`OR`/`NOT` of exact parts. `[c]` and `[cd]` equality,
/// `IN`, `!=` and `BEGINSWITH` on a string field are exact range scans of its folded column
/// (``DerivedColumn``), and `LIKE[c]`/`LIKE[cd]` with a literal prefix narrows to that
/// prefix's range there, the pattern checked by the residual. Other comparisons that involve
/// one stored value and constants (`BEGINSWITH` without options, `ENDSWITH`, `CONTAINS`,
/// `LIKE` without a folded column, `MATCHES`, ...) run the evaluator itself through the
/// dialect's callback (``SQLDialect/comparisonTest(_:typeCode:value:)``: SQLite's
/// `query_test`), which is exact but evaluates every row of the zone; a dialect without
/// callbacks leaves them to the residual.
/// Full-text and radius searches narrow the rows through the dialect's indexes. The rest
/// (several fields at once, key paths into values, `SUBQUERY`, `ALL`, variables) is the
/// residual, checked by the evaluator on the rows SQL returns; an `OR` or `NOT` with an inexact
/// part goes to the residual whole.
///
/// Not to be confused with ``SQLPlan`` (what it makes) nor with ``QueryPlan`` (what `explain`
/// prints).
///
/// ```swift
/// let planner = SQLPlanner(dialect: SQLiteDialect(registry: registry), schema: schema, recordType: "City")
/// let plan = try planner.plan(specification)
/// ```
@_spi(StorageEngine) public struct SQLPlanner: Sendable {
    @_spi(StorageEngine) public let dialect: any SQLDialect
    /// The record type's schema; nil when the type has no records yet.
    @_spi(StorageEngine) public let schema: RecordTypeSchema?
    @_spi(StorageEngine) public let recordType: String
    /// The catalog and zone for key paths through relationships; nil plans none of them (they
    /// are left to the residual whole).
    @_spi(StorageEngine) public var relationshipPlanning: RelationshipPlanning?

    /// A planner for one record type.
    @_spi(StorageEngine) public init(dialect: any SQLDialect, schema: RecordTypeSchema?, recordType: String) {
        self.dialect = dialect
        self.schema = schema
        self.recordType = recordType
    }

    /// The record table's row identifier, under ``alias``.
    @_spi(StorageEngine) public var row: String { "\(alias).\(dialect.rowIdentifier)" }
    /// The alias of the record table: `t` in every statement, another inside a correlated
    /// subquery on a relationship's members (whose conditions still read the outer `t`).
    @_spi(StorageEngine) public var alias = "t"

    /// A column of the record table, under ``alias``.
    @_spi(StorageEngine) public func column(_ name: String) -> String { "\(alias).\(dialect.quote(name))" }

    /// Plans a query.
    @_spi(StorageEngine) public func plan(_ specification: QuerySpecification) throws(RecordStoreError) -> SQLPlan {
        let condition = try plan(specification.predicate)
        var whereClause = "\(column(TableLayout.zoneColumn)) = ?"
        var arguments: [SQLValue] = [.text(TableLayout.zoneKey(specification.zone))]
        if let sql = condition.sql {
            whereClause += " AND \(sql)"
            arguments += condition.arguments
        }
        let residual = condition.isExact ? nil : residualPredicate(specification.predicate)
        guard let (orderBy, orderArguments) = orderClause(specification.sorts) else {
            // SQL cannot order as asked: the executor sorts, and pages after the keyset, in Swift.
            return SQLPlan(whereClause: whereClause, whereArguments: arguments, orderBy: nil, orderArguments: [], residual: residual)
        }
        let segments = specification.after.flatMap { keysetSegments(specification.sorts, after: $0) } ?? []
        return SQLPlan(
            whereClause: whereClause, whereArguments: arguments, orderBy: orderBy, orderArguments: orderArguments,
            residual: residual, keysetSegments: segments)
    }

    /// A plan that reads every record of the type in the zone, in order, and leaves the whole
    /// predicate to the evaluator: for predicates the database cannot run as planned.
    @_spi(StorageEngine) public func scanPlan(_ specification: QuerySpecification) throws(RecordStoreError) -> SQLPlan {
        var scan = specification
        scan.predicate = .truePredicate
        var plan = try plan(scan)
        plan.residual = specification.predicate
        return plan
    }

    // MARK: Residual

    /// The parts of the predicate that SQL does not do exactly. The parts of an `AND` are taken
    /// as ``plan(_:)`` takes them: the full-text searches of one text together; from the first
    /// part that may raise on, every part is the residual's, in order (``SQLCondition/mayRaise``).
    private func residualPredicate(_ predicate: FormatPredicate) -> FormatPredicate? {
        if case .and(let parts) = predicate {
            var afterRaisingPart = false
            let remaining = TokenSearch.gather(parts, conjunction: true).flatMap { operand -> [FormatPredicate] in
                switch operand {
                case .search(let search):
                    if afterRaisingPart { return search.parts }
                    return fullTextCondition(search).isExact ? [] : search.parts
                case .other(let part):
                    if afterRaisingPart { return [part] }
                    let condition = try? plan(part)
                    if condition?.isExact == true { return [] }
                    if condition?.mayRaise ?? true {
                        afterRaisingPart = true
                        return [part]
                    }
                    return [residualPredicate(part) ?? part]
                }
            }
            if remaining.isEmpty { return nil }
            return remaining.count == 1 ? remaining[0] : .and(remaining)
        }
        if let condition = try? plan(predicate), condition.isExact { return nil }
        return predicate
    }

    // MARK: Predicates

    /// A condition that is always true or always false.
    @_spi(StorageEngine) public func constant(_ value: Bool) -> SQLCondition {
        .exact(dialect.literal(value))
    }

    /// The SQL condition of one predicate (part): exact, a superset, or none (``SQLCondition/residualOnly``).
    @_spi(StorageEngine) public func condition(_ predicate: FormatPredicate) throws(RecordStoreError) -> SQLCondition {
        try plan(predicate)
    }

    private func plan(_ predicate: FormatPredicate) throws(RecordStoreError) -> SQLCondition {
        switch predicate {
        case .constant(let value):
            return constant(value)
        case .and(let parts):
            var combined = SQLCondition(sql: nil, arguments: [], isExact: true)
            for operand in TokenSearch.gather(parts, conjunction: true) {
                combined = combined.and(try plan(operand))
            }
            if combined.sql == nil, combined.isExact { return constant(true) }
            return combined.sql.map { SQLCondition(sql: "(\($0))", arguments: combined.arguments, isExact: combined.isExact) } ?? combined
        case .or(let parts):
            if parts.isEmpty { return constant(false) }
            var pieces: [String] = []
            var arguments: [SQLValue] = []
            var exact = true
            let conditions = try TokenSearch.gather(parts, conjunction: false).map { operand throws(RecordStoreError) in try plan(operand) }
            if conditions.contains(where: \.mayRaise) { return .raising }
            for condition in conditions {
                guard let sql = condition.sql else { return .residualOnly }
                pieces.append(sql)
                arguments += condition.arguments
                exact = exact && condition.isExact
            }
            return SQLCondition(sql: "(" + pieces.joined(separator: " OR ") + ")", arguments: arguments, isExact: exact)
        case .not(let inner):
            let condition = try plan(inner)
            if condition.mayRaise { return .raising }
            guard condition.isExact, let sql = condition.sql else { return .residualOnly }
            return .exact("NOT (\(sql))", condition.arguments)
        case .comparison(let comparison):
            return try plan(comparison)
        }
    }

    /// An operand of an `AND` or `OR`: a full-text search of one text, or another part.
    private func plan(_ operand: TokenSearch.Operand) throws(RecordStoreError) -> SQLCondition {
        switch operand {
        case .search(let search): fullTextCondition(search)
        case .other(let predicate): try plan(predicate)
        }
    }

    private func plan(_ comparison: ComparisonPredicate) throws(RecordStoreError) -> SQLCondition {
        if mayRaise(comparison) { return .raising }
        if let walked = try relationshipCondition(comparison) { return walked }
        if let search = TokenSearch(.comparison(comparison)) { return fullTextCondition(search) }
        if let distance = try distanceCondition(comparison) { return distance }
        if let list = try listCondition(comparison) { return list }
        guard comparison.modifier == .direct, let key = ComparisonKey.singleKey(in: comparison) else { return .residualOnly }
        let substituted = ComparisonKey.substitute(key, in: comparison)
        let columnExpression: String
        let type: FieldType
        // What the evaluator's callback reads: the value as stored (a string as the client spelled it).
        let storedValue: String
        if let metadata = MetadataField(rawValue: key) {
            columnExpression = dialect.metadataExpression(metadata, alias: alias)
            type = metadata.fieldType
            storedValue = columnExpression
        } else if let field = schema?.field(named: key) {
            guard !field.type.isList else { return .residualOnly }
            if let folded = fieldStringCondition(comparison, key: key, field: field) { return folded }
            columnExpression = column(field.name)
            type = field.type
            storedValue = StoredSpelling.readExpression(field: field, alias: alias, dialect: dialect)
        } else {
            // No record has this field: every record sees nil, so the answer is a constant.
            guard let compiled = try? CompiledPredicate(.comparison(substituted)),
                  let answer = try? compiled.evaluate(value: .null) else { return .residualOnly }
            return constant(answer)
        }
        if let native = nativeCondition(comparison, key: key, column: columnExpression, type: type) {
            return native
        }
        return try test(.comparison(substituted), type: type, value: storedValue)
    }

    /// Whether evaluating the comparison may raise on a record's values, as Apple's evaluation
    /// raises: arithmetic on a value that may be missing, or `ANY`/`ALL` over a left side that is
    /// not known to be a collection (a list field, a to-many, a field no record has, a list of
    /// constants, a `SUBQUERY` or `tokenize:using:`).
    private func mayRaise(_ comparison: ComparisonPredicate) -> Bool {
        if comparison.left.computesArithmeticOnValues || comparison.right.computesArithmeticOnValues { return true }
        guard comparison.modifier != .direct else { return false }
        let path: String
        switch comparison.left {
        case .keyPath(let keyPath): path = keyPath
        // What always answers a collection: a list of constants, a SUBQUERY, a text's tokens.
        case .aggregate, .subquery, .function("tokenize:using:", _): return false
        default: return true
        }
        let first = String(path.prefix { $0 != "." })
        if MetadataField(rawValue: first) != nil { return true }
        if let field = schema?.field(named: first) { return !field.type.isList }
        if let relationship = schema?.relationship(named: first), case .toOne = relationship.kind { return true }
        return false
    }

    /// The evaluator's comparison of `SELF` with constants run on a stored value through the
    /// dialect's callback; the residual's part when the dialect has none.
    @_spi(StorageEngine) public func test(_ predicate: FormatPredicate, type: FieldType, value: String) throws(RecordStoreError) -> SQLCondition {
        try dialect.comparisonTest(predicate, typeCode: StoredValueEncoding.typeCode(type), value: value) ?? .residualOnly
    }
}

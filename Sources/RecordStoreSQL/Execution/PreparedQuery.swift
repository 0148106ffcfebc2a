import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// A query checked against the catalog of the snapshot it reads and planned into SQL: the
/// first step of every query the SQL engines run (``SQLExecutor``).
///
/// ```swift
/// let prepared = try PreparedQuery(specification, catalog: catalog, zoneExists: true, dialect: dialect)
/// prepared.plan.whereClause   // t."$zone" = ? AND ...
/// ```
@_spi(StorageEngine) public struct PreparedQuery: Sendable {
    /// The query.
    @_spi(StorageEngine) public let specification: QuerySpecification
    /// The record type's schema.
    @_spi(StorageEngine) public let schema: RecordTypeSchema
    /// The plan the executor runs.
    @_spi(StorageEngine) public private(set) var plan: SQLPlan
    /// A condition every statement of the query also checks, in the statement's own snapshot:
    /// that the catalog the query was planned against is still the stored one. A server engine
    /// that plans against a catalog it keeps sets it, and reads the catalog again when the
    /// check fails (see `PostgresEngine`); nil when the catalog was read in the query's snapshot.
    @_spi(StorageEngine) public var catalogCheck: SQLCondition?
    private let planner: SQLPlanner

    /// Validates and plans a query. Throws the validation's error (an unknown record type or
    /// field among them), or ``RecordStoreError/zoneNotFound(_:)``.
    @_spi(StorageEngine) public init(
        _ specification: QuerySpecification, catalog: SchemaCatalog, zoneExists: Bool, dialect: any SQLDialect
    ) throws(RecordStoreError) {
        let schema = try QueryValidation.check(specification, catalog: catalog, allowsRelationshipWalks: true)
        guard zoneExists else { throw .zoneNotFound(specification.zone) }
        self.specification = specification
        self.schema = schema
        var planner = SQLPlanner(dialect: dialect, schema: schema, recordType: specification.recordType)
        planner.relationshipPlanning = RelationshipPlanning(catalog: catalog, zone: specification.zone)
        self.planner = planner
        plan = try planner.plan(specification)
        if plan.residual != specification.predicate, !plan.whereArguments.allSatisfy(dialect.bindsExactly) {
            try fallBackToScan()
        }
        try Self.checkNoWalk(in: plan.residual, schema: schema, catalog: catalog)
        try checkWalkedSorts()
    }

    /// Throws ``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)`` when a sort walks a
    /// relationship that SQL does not order by (the executor could only sort by the row), and
    /// for a page after a keyset position (whose values were read from the records themselves,
    /// which lack the walked ones: the walk in Swift pages as the memory engine does).
    private func checkWalkedSorts() throws(RecordStoreError) {
        for sort in specification.sorts {
            guard let walked = planner.walkedKey(sort.key) else { continue }
            guard plan.ordersInSQL, specification.after == nil, case .expression = planner.orderExpression(sort) else {
                throw .relationshipWalkNotPlanned(walked.relationship, recordType: schema.name)
            }
        }
    }

    /// The value of a key (a group-by or aggregate key) as `SELECT` reads it when the key walks
    /// a to-one (`department.name`), with its arguments and type; nil when it walks nothing.
    /// Throws ``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)`` when it walks a
    /// relationship SQL does not read, or when the evaluator checks a residual on the rows (the
    /// rows it reads then lack the walked values).
    @_spi(StorageEngine) public func walkedValue(_ key: String) throws(RecordStoreError) -> (sql: String, arguments: [SQLValue], type: FieldType)? {
        guard let walked = planner.walkedKey(key) else { return nil }
        guard plan.residual == nil, let value = planner.relationshipValue(key) else {
            throw .relationshipWalkNotPlanned(walked.relationship, recordType: schema.name)
        }
        return value
    }

    /// Throws ``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)`` when the residual
    /// walks a relationship: the evaluator reads only the row, so the store must walk it.
    private static func checkNoWalk(in residual: FormatPredicate?, schema: RecordTypeSchema, catalog: SchemaCatalog) throws(RecordStoreError) {
        guard let residual, !schema.relationships.isEmpty || RelationshipQuery.mayWalk(residual) else { return }
        var analyzer = RelationshipWalkAnalyzer(catalog: catalog, recordType: schema.name)
        _ = try analyzer.rewrite(residual)
        if let walked = analyzer.walk.root.children.keys.sorted().first {
            throw .relationshipWalkNotPlanned(walked, recordType: schema.name)
        }
    }

    /// A statement whose condition the database's parser might refuse (deeply nested or very
    /// long), to try preparing before running; nil when the condition is ordinary.
    @_spi(StorageEngine) public var parserCheck: SQLStatement? {
        guard plan.residual != specification.predicate else { return nil }
        let nesting = plan.whereClause.utf8.reduce(0) { $1 == UInt8(ascii: "(") ? $0 + 1 : $0 }
        guard nesting > 40 || plan.whereClause.utf8.count > 20_000 else { return nil }
        let dialect = planner.dialect
        return SQLStatement("SELECT 1 FROM \(dialect.quote(TableLayout.recordTable(specification.recordType))) AS t WHERE \(plan.whereClause)",
                            plan.whereArguments, dialect: dialect)
    }

    /// Whether selecting the query's records takes one statement (``SelectExecution`` runs no
    /// keyset segment after the first), so that it reads one snapshot even outside a transaction.
    @_spi(StorageEngine) public var selectsInOneStatement: Bool {
        !plan.ordersInSQL || plan.keysetSegments.count <= 1
    }

    /// The expressions SQL orders the records by, most significant first
    /// (``SQLPlanner/orderKeys(_:)``); nil when SQL does not order them (Swift sorts).
    @_spi(StorageEngine) public var orderKeys: [OrderKey]? {
        plan.ordersInSQL ? planner.orderKeys(specification.sorts) : nil
    }

    /// Replaces the plan by a scan of the zone in order, with the whole predicate as residual.
    @_spi(StorageEngine) public mutating func fallBackToScan() throws(RecordStoreError) {
        plan = try planner.scanPlan(specification)
    }

    /// A reader of the record type's rows.
    @_spi(StorageEngine) public func reader(dialect: any SQLDialect) -> RecordRowReader {
        RecordRowReader(schema: schema, zone: specification.zone, dialect: dialect)
    }

    /// The compiled residual predicate, or nil when SQL is exact. Its evaluations share one
    /// budget of the query's ``QueryCostLimits``: call it once for each run of the query.
    @_spi(StorageEngine) public func compiledResidual() throws(RecordStoreError) -> CompiledPredicate? {
        guard let residual = plan.residual else { return nil }
        do {
            return try CompiledPredicate(residual, options: specification.costLimits.evaluationOptions(), layout: RecordObject.self)
        } catch {
            throw RecordStoreError(evaluating: error)
        }
    }

    /// `FROM "Type" AS t WHERE …` with an optional extra condition, and its arguments.
    @_spi(StorageEngine) public func fromClause(dialect: any SQLDialect, adding extra: SQLCondition? = nil) -> (String, [SQLValue]) {
        var sql = "FROM \(dialect.quote(TableLayout.recordTable(specification.recordType))) AS t WHERE \(plan.whereClause)"
        var arguments = plan.whereArguments
        for condition in [extra, catalogCheck] {
            guard let condition, let conditionSQL = condition.sql else { continue }
            sql += " AND \(conditionSQL)"
            arguments += condition.arguments
        }
        return (sql, arguments)
    }
}

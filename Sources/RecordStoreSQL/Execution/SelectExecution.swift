import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// The records of one query, read from SQL one statement at a time: a state machine that
/// says which statement to run next and takes the rows, so that one copy of the logic serves
/// synchronous and asynchronous connections (``SQLExecutor``).
///
/// Limit and offset go to SQL when SQL filters exactly; with a residual predicate, rows stream
/// until enough of them pass it. Keyset pages run their segments in order until the page is
/// full. When SQL cannot order as the query asks, every match is read and sorted in Swift.
///
/// ```swift
/// var execution = try SelectExecution(prepared, dialect: dialect)
/// while let statement = execution.nextStatement() {
///     try connection.forEachRow(statement) { row in try execution.accept(row) }
/// }
/// let records = execution.finish()
/// ```
@_spi(StorageEngine) public struct SelectExecution {
    private let prepared: PreparedQuery
    private let dialect: any SQLDialect
    private let reader: RecordRowReader
    private let residual: CompiledPredicate?
    private let searchable: [String]
    private var page: PageCollector
    /// The next keyset segment to run (or 0 for the one statement without segments).
    private var nextSegment = 0

    /// Starts a query.
    @_spi(StorageEngine) public init(_ prepared: PreparedQuery, dialect: any SQLDialect) throws(RecordStoreError) {
        self.prepared = prepared
        self.dialect = dialect
        reader = prepared.reader(dialect: dialect)
        residual = try prepared.compiledResidual()
        searchable = prepared.schema.searchableFieldNames
        // SQL skips the offset unless a residual decides which rows count (or Swift sorts).
        let skip = residual != nil && prepared.plan.ordersInSQL ? max(0, prepared.specification.offset) : 0
        page = PageCollector(skip: skip, limit: prepared.specification.limit, ordered: prepared.plan.ordersInSQL)
    }

    private var specification: QuerySpecification { prepared.specification }
    private var plan: SQLPlan { prepared.plan }

    /// The next statement to run, or nil when the page is complete.
    @_spi(StorageEngine) public mutating func nextStatement() -> SQLStatement? {
        if page.isFull { return nil }
        guard plan.ordersInSQL else {
            // Every match, unordered; ``finish()`` sorts and pages them.
            guard nextSegment == 0 else { return nil }
            nextSegment = 1
            let (from, arguments) = prepared.fromClause(dialect: dialect)
            return SQLStatement("SELECT \(reader.selection) \(from)", arguments, dialect: dialect)
        }
        let segments: [SQLCondition?] = plan.keysetSegments.isEmpty ? [nil] : plan.keysetSegments
        guard nextSegment < segments.count else { return nil }
        defer { nextSegment += 1 }
        return selectStatement(segment: segments[nextSegment], remaining: page.remaining)
    }

    /// `SELECT … WHERE … ORDER BY … [LIMIT ? OFFSET ?]` for one segment.
    @_spi(StorageEngine) public func selectStatement(segment: SQLCondition?, remaining limit: Int?) -> SQLStatement {
        let (from, whereArguments) = prepared.fromClause(dialect: dialect, adding: segment)
        var sql = "SELECT \(reader.selection) \(from) ORDER BY \(plan.orderBy ?? dialect.literal(true))"
        var arguments = whereArguments + plan.orderArguments
        if plan.residual == nil, limit != nil || specification.offset > 0 {
            let paging = dialect.paging(limit: limit, offset: specification.offset)
            sql += " " + paging.sql
            arguments += paging.arguments
        }
        return SQLStatement(sql, arguments, dialect: dialect)
    }

    /// The statement `explain` shows: the first one the query runs.
    @_spi(StorageEngine) public var firstStatement: SQLStatement {
        var copy = self
        return copy.nextStatement() ?? selectStatement(segment: nil, remaining: specification.limit)
    }

    /// Takes one row of the current statement; returns whether more rows are wanted.
    @_spi(StorageEngine) public mutating func accept(_ row: some SQLRow) throws -> Bool {
        try page.accept(reader.record(from: row), residual: residual, searchable: searchable)
    }

    /// Adds the rows read to the query's tally (``QuerySpecification/tally``), if it has one.
    @_spi(StorageEngine) public func tally() {
        page.tally(specification.tally)
    }

    /// The page: the records in order, after the keyset position or offset, at most the limit.
    @_spi(StorageEngine) public func finish() -> [Record] {
        guard !plan.ordersInSQL else { return page.records }
        return RecordOrdering(sorts: specification.sorts)
            .page(of: page.records, after: specification.after, offset: specification.offset, limit: specification.limit)
    }
}

import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// The records of a query over a hierarchy read by one statement per keyset segment
/// (``HierarchyUnion``): a state machine like ``SelectExecution``, whose rows come from every
/// branch in the query's order, each read by its branch's reader and tested by its branch's
/// residual predicate (`entity.name` is each branch's own type).
///
/// Offset and limit go to SQL when no branch has a residual; otherwise rows stream until
/// enough of them pass.
///
/// ```swift
/// var execution = try UnionExecution(union)
/// while let statement = execution.nextStatement() {
///     try connection.forEachRow(statement) { row in try execution.accept(row) }
/// }
/// let records = execution.records
/// ```
@_spi(StorageEngine) public struct UnionExecution {
    private let union: HierarchyUnion
    private let readers: [RecordRowReader]
    private let residuals: [CompiledPredicate?]
    private let searchable: [[String]]
    private var page: PageCollector
    /// The next keyset segment to run (or 0 for the one statement without segments).
    private var nextSegment = 0

    /// Starts a query.
    @_spi(StorageEngine) public init(_ union: HierarchyUnion) throws(RecordStoreError) {
        self.union = union
        readers = union.branches.indices.map(union.reader(of:))
        var residuals: [CompiledPredicate?] = []
        for branch in union.branches { residuals.append(try branch.compiledResidual()) }
        self.residuals = residuals
        searchable = union.branches.map(\.schema.searchableFieldNames)
        // SQL skips the offset unless a residual decides which rows count.
        page = PageCollector(skip: union.pagesInSQL ? 0 : max(0, union.specification.offset), limit: union.specification.limit, ordered: true)
    }

    /// The next statement to run, or nil when the page is complete.
    @_spi(StorageEngine) public mutating func nextStatement() -> SQLStatement? {
        guard !page.isFull, nextSegment < max(1, union.segmentCount) else { return nil }
        defer { nextSegment += 1 }
        return union.statement(segment: nextSegment, limit: page.remaining)
    }

    /// The statement `explain` shows: the first one the query runs.
    @_spi(StorageEngine) public var firstStatement: SQLStatement {
        var copy = self
        return copy.nextStatement() ?? union.statement(segment: 0, limit: union.specification.limit)
    }

    /// Takes one row of the current statement; returns whether more rows are wanted.
    @_spi(StorageEngine) public mutating func accept(_ row: some SQLRow) throws -> Bool {
        guard let branch = union.branch(of: row) else {
            throw RecordStoreError.storage("a row of the union over '\(union.specification.recordType)' names no branch")
        }
        return try page.accept(readers[branch].record(from: row), residual: residuals[branch], searchable: searchable[branch])
    }

    /// Adds the rows read to the query's tally (``QuerySpecification/tally``), if it has one.
    @_spi(StorageEngine) public func tally() {
        page.tally(union.specification.tally)
    }

    /// The page: the records in order, after the keyset position or offset, at most the limit.
    @_spi(StorageEngine) public var records: [Record] { page.records }
}

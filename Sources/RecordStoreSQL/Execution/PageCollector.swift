import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// The records of a page as rows arrive: each tested by its residual predicate, if any, then
/// skipped while the offset lasts, kept until the limit. Shared by ``SelectExecution`` (one
/// type) and ``UnionExecution`` (a hierarchy's branches in one statement).
///
/// ```swift
/// var page = PageCollector(skip: 0, limit: 10, ordered: true)
/// let wantsMore = try page.accept(record, residual: nil, searchable: [])
/// ```
@_spi(StorageEngine) public struct PageCollector {
    /// The records kept, in the order they came.
    @_spi(StorageEngine) public private(set) var records: [Record] = []
    /// Matches still to skip (the offset, when SQL does not apply it).
    private var skip: Int
    private let limit: Int?
    /// Whether the rows come in the query's order: otherwise every match is kept, and the
    /// caller sorts and pages them.
    private let ordered: Bool
    /// The rows read, those a residual predicate tested, and those it turned away (``QueryTally``).
    @_spi(StorageEngine) public private(set) var rowsRead = 0
    @_spi(StorageEngine) public private(set) var residualTested = 0
    @_spi(StorageEngine) public private(set) var residualRejected = 0

    /// A page that skips `skip` matches and keeps at most `limit` (nil: all) when `ordered`.
    @_spi(StorageEngine) public init(skip: Int, limit: Int?, ordered: Bool) {
        self.skip = skip
        self.limit = limit
        self.ordered = ordered
    }

    /// Whether the page holds its limit.
    @_spi(StorageEngine) public var isFull: Bool {
        limit.map { records.count >= max(0, $0) } ?? false
    }

    /// How many records the page still wants (nil: all).
    @_spi(StorageEngine) public var remaining: Int? {
        limit.map { $0 - records.count }
    }

    /// Takes one record read; returns whether more rows are wanted.
    @_spi(StorageEngine) public mutating func accept(_ record: Record, residual: CompiledPredicate?, searchable: [String]) throws(RecordStoreError) -> Bool {
        rowsRead += 1
        if let residual {
            residualTested += 1
            do {
                guard try residual.evaluate(RecordObject(record: record, searchableFields: searchable)) else {
                    residualRejected += 1
                    return true
                }
            } catch {
                throw RecordStoreError(evaluating: error)
            }
        }
        guard ordered else {
            records.append(record)
            return true
        }
        if skip > 0 {
            skip -= 1
            return true
        }
        records.append(record)
        if let limit, records.count >= limit { return false }
        return true
    }

    /// Adds the rows read to a query's tally, if it has one.
    @_spi(StorageEngine) public func tally(_ tally: QueryTally?) {
        tally?.add(rowsRead: rowsRead, residualTested: residualTested, residualRejected: residualRejected)
    }
}

import PredicateLanguage

/// What the engine did for one store query, counted as it runs: the rows it read, and how many
/// of them the residual predicate (the part of the predicate SQL cannot decide, tested in Swift)
/// tested and turned away. The store hands one to the engine in the query's
/// ``QuerySpecification/tally`` and records it in its metrics (``StoreMetrics``) when the
/// query returns.
///
/// A tally is not part of what a query asks: two specifications that differ only by their
/// tallies are equal.
///
/// ```swift
/// let tally = QueryTally()
/// specification.tally = tally
/// let records = try await engine.records(specification)
/// print(tally.rowsRead, records.count)
/// ```
@_spi(StorageEngine) public final class QueryTally: Sendable, Hashable {
    private struct Counts {
        var rowsRead = 0
        var residualTested = 0
        var residualRejected = 0
    }

    private let counts = LockedState(Counts())

    /// An empty tally.
    @_spi(StorageEngine) public init() {}

    /// Counts rows the engine read: `tested` of them were tested by the residual predicate, and
    /// `rejected` of those failed it.
    @_spi(StorageEngine) public func add(rowsRead: Int, residualTested: Int = 0, residualRejected: Int = 0) {
        counts.withLock {
            $0.rowsRead += rowsRead
            $0.residualTested += residualTested
            $0.residualRejected += residualRejected
        }
    }

    /// The rows the engine read (from SQL, or from memory).
    @_spi(StorageEngine) public var rowsRead: Int { counts.withLock { $0.rowsRead } }
    /// The rows the residual predicate tested.
    @_spi(StorageEngine) public var residualTested: Int { counts.withLock { $0.residualTested } }
    /// The rows the residual predicate turned away.
    @_spi(StorageEngine) public var residualRejected: Int { counts.withLock { $0.residualRejected } }

    /// Tallies are all equal: they count a query's work, and are no part of the query.
    @_spi(StorageEngine) public static func == (lhs: QueryTally, rhs: QueryTally) -> Bool { true }

    /// Adds nothing to a hash (see ``==(_:_:)``).
    @_spi(StorageEngine) public func hash(into hasher: inout Hasher) {}
}

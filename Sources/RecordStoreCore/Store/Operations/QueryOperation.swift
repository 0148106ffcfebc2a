import Foundation
import PredicateLanguage

/// Runs a query in one zone and reports each record, then the cursor: `CKQueryOperation`'s counterpart.
///
/// `resultsLimit` 0 (``maximumResults``, the default) means the store's default batch of
/// ``defaultResultsLimit`` (100) records. `desiredKeys` nil returns every field, an empty list
/// only the metadata. `recordMatchedBlock` is called once per record in the query's order, then
/// `queryResultBlock` once, with the cursor when more results remain (nil when done), or with the
/// error that stopped the operation (``RecordStoreError/cancelled`` after ``cancel()``).
///
/// ```swift
/// @Sendable func run(_ operation: QueryOperation) {   // one batch, then the next from its cursor
///     operation.resultsLimit = 50
///     operation.desiredKeys = ["name", "population"]
///     operation.recordMatchedBlock = { id, result in if case .success(let city) = result { print(id, city["name"] ?? .null) } }
///     operation.queryResultBlock = { result in
///         if case .success(let cursor?) = result { run(QueryOperation(cursor: cursor)) }
///     }
///     store.add(operation)                   // or: await operation.run(on: store)
/// }
/// run(QueryOperation(query: query))          // every match, 50 at a time
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ModifyOperation`,
/// `QueryBatch`, `QueryPage` and `QueryAnswer`.
public final class QueryOperation: Sendable {
    /// `resultsLimit` meaning "the store's default batch".
    public static let maximumResults = 0
    /// The batch size when `resultsLimit` is ``maximumResults``: 100 records.
    public static let defaultResultsLimit = 100

    private struct Settings: Sendable {
        package var zoneID: ZoneID = .default
        package var resultsLimit = QueryOperation.maximumResults
        package var desiredKeys: [String]?
        package var cursorMode: QueryCursor.Mode = .keyset
        package var recordMatchedBlock: (@Sendable (RecordID, Result<Record, RecordStoreError>) -> Void)?
        package var queryResultBlock: (@Sendable (Result<QueryCursor?, RecordStoreError>) -> Void)?
        package var isCancelled = false
        package var isFinished = false
        package var task: Task<Void, Never>?
    }

    private let settings = LockedState(Settings())

    /// The query to run; nil when the operation continues a cursor.
    public let query: RecordQuery?
    /// The cursor to continue; nil for a new query.
    public let cursor: QueryCursor?

    /// An operation that runs a query from its first record.
    ///
    /// ```swift
    /// let operation = QueryOperation(query: try RecordQuery(recordType: "City", predicate: .truePredicate))
    /// ```
    public init(query: RecordQuery) {
        self.query = query
        self.cursor = nil
    }

    /// An operation that continues where a cursor stopped (its query and zone come from the cursor).
    ///
    /// ```swift
    /// let next = QueryOperation(cursor: cursor)
    /// ```
    public init(cursor: QueryCursor) {
        self.query = nil
        self.cursor = cursor
    }

    /// The zone searched (for a new query; a cursor carries its own zone).
    public var zoneID: ZoneID {
        get { settings.withLock { $0.zoneID } }
        set { settings.withLock { $0.zoneID = newValue } }
    }

    /// The most records in this batch; 0 (``maximumResults``) for the default of 100.
    public var resultsLimit: Int {
        get { settings.withLock { $0.resultsLimit } }
        set { settings.withLock { $0.resultsLimit = newValue } }
    }

    /// The fields to return: nil for all, empty for metadata only.
    public var desiredKeys: [String]? {
        get { settings.withLock { $0.desiredKeys } }
        set { settings.withLock { $0.desiredKeys = newValue } }
    }

    /// How the cursor of a new query resumes: ``QueryCursor/Mode/keyset`` (default) or CloudKit's ``QueryCursor/Mode/offset``.
    public var cursorMode: QueryCursor.Mode {
        get { settings.withLock { $0.cursorMode } }
        set { settings.withLock { $0.cursorMode = newValue } }
    }

    /// Called once per matched record, in order.
    public var recordMatchedBlock: (@Sendable (RecordID, Result<Record, RecordStoreError>) -> Void)? {
        get { settings.withLock { $0.recordMatchedBlock } }
        set { settings.withLock { $0.recordMatchedBlock = newValue } }
    }

    /// Called once at the end: the cursor when more results remain (nil when done), or the error.
    public var queryResultBlock: (@Sendable (Result<QueryCursor?, RecordStoreError>) -> Void)? {
        get { settings.withLock { $0.queryResultBlock } }
        set { settings.withLock { $0.queryResultBlock = newValue } }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { settings.withLock { $0.isCancelled } }

    /// Whether the completion was delivered.
    public var isFinished: Bool { settings.withLock { $0.isFinished } }

    /// Stops the operation: no further record is reported, and the completion receives ``RecordStoreError/cancelled``.
    ///
    /// ```swift
    /// operation.cancel()
    /// ```
    public func cancel() {
        settings.withLock { $0.isCancelled = true }
    }

    /// Runs the operation on a store and returns when the completion has been called.
    ///
    /// ```swift
    /// await operation.run(on: store)
    /// ```
    public func run(on store: Store) async {
        await execute(on: store)
    }

    /// Waits until an operation started with ``Store/add(_:)`` has finished.
    ///
    /// ```swift
    /// store.add(operation); await operation.waitUntilFinished()
    /// ```
    public func waitUntilFinished() async {
        await settings.withLock { $0.task }?.value
    }

    package func start(on store: Store) {
        let task = Task.detached { [self] in await self.execute(on: store) }
        settings.withLock { $0.task = task }
    }

    private func execute(on store: Store) async {
        let current = settings.withLock { $0 }
        let result = await batch(on: store, settings: current)
        switch result {
        case .success(let batch):
            for record in batch.records {
                if isCancelled { return finish(.failure(.cancelled)) }
                current.recordMatchedBlock?(record.recordID, .success(record))
            }
            finish(isCancelled ? .failure(.cancelled) : .success(batch.cursor))
        case .failure(let error):
            finish(.failure(error))
        }
    }

    private func batch(on store: Store, settings current: Settings) async -> Result<QueryBatch, RecordStoreError> {
        if current.isCancelled { return .failure(.cancelled) }
        do throws(RecordStoreError) {
            if let cursor {
                return .success(try await store.records(continuingMatchFrom: cursor, desiredKeys: current.desiredKeys, resultsLimit: current.resultsLimit))
            }
            guard let query else { return .failure(.invalidQuery("the operation has neither a query nor a cursor")) }
            return .success(try await store.records(
                matching: query, inZone: current.zoneID, desiredKeys: current.desiredKeys,
                resultsLimit: current.resultsLimit, cursorMode: current.cursorMode))
        } catch {
            return .failure(error)
        }
    }

    private func finish(_ result: Result<QueryCursor?, RecordStoreError>) {
        let block = settings.withLock { state -> (@Sendable (Result<QueryCursor?, RecordStoreError>) -> Void)? in
            if state.isFinished { return nil }
            state.isFinished = true
            return state.queryResultBlock
        }
        block?(result)
    }
}

import GRDB
@_spi(StorageEngine) import RecordStoreCore

/// How the SQLite engine reaches GRDB from `async` code: GRDB's callback API, whose reader or
/// writer is given back as soon as the work is done, *before* the caller's task resumes; or, for
/// a synchronous caller (`SynchronousCall`), GRDB's blocking API on the caller's own thread.
///
/// GRDB's own `async` read keeps its reader until the awaiting task runs again, and that needs a
/// cooperative thread. Where the cooperative threads are all busy in synchronous ``Store`` calls
/// waiting for a reader (two threads on two cores suffice), each side waits for the other for
/// ever. Here nothing held by the engine waits for the concurrency pool; and, unlike blocking
/// reads on Dispatch's global queue, waiting for a free reader blocks at most one thread (GRDB
/// queues the waiters), however many tasks read at once.
///
/// ```swift
/// let count = try await pool.readReleasingFirst { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM City") }
/// ```
extension DatabasePool {
    /// Runs `body` in a read snapshot and gives the reader back before returning.
    func readReleasingFirst<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(RecordStoreError) -> T {
        if SynchronousCall.isWaiting { return try blocking { try self.read(body) } }
        let result: Result<T, RecordStoreError> = await withCheckedContinuation { continuation in
            asyncRead { database in
                do {
                    continuation.resume(returning: .success(try body(database.get())))
                } catch {
                    continuation.resume(returning: .failure(SQLiteEngine.storeError(error)))
                }
            }
        }
        return try result.get()
    }

    /// Runs `body` in a write transaction and gives the writer back before returning.
    func writeReleasingFirst<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(RecordStoreError) -> T {
        if SynchronousCall.isWaiting { return try blocking { try self.write(body) } }
        let result: Result<T, RecordStoreError> = await withCheckedContinuation { continuation in
            asyncWrite(body) { _, outcome in
                continuation.resume(returning: outcome.mapError(SQLiteEngine.storeError))
            }
        }
        return try result.get()
    }

    /// Runs GRDB's blocking API (in a synchronous closure, where its blocking overloads are the
    /// ones chosen) and turns its errors into store errors.
    private func blocking<T>(_ work: () throws -> T) throws(RecordStoreError) -> T {
        do {
            return try work()
        } catch {
            throw SQLiteEngine.storeError(error)
        }
    }
}

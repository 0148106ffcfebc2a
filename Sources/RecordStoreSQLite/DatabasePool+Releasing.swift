import GRDB
@_spi(StorageEngine) import RecordStoreCore

/// How the SQLite engine reaches GRDB from `async` code: GRDB's blocking API on a Dispatch
/// thread (or on the synchronous caller's own thread, see `BlockingWork`), so that a reader or
/// the writer is given back *before* the caller's task resumes.
///
/// GRDB's own `async` read keeps its reader until the awaiting task runs again, and that needs a
/// cooperative thread. Where the cooperative threads are all busy in synchronous ``Store`` calls
/// waiting for a reader (two threads on two cores suffice), each side waits for the other for
/// ever. Here nothing held by the engine waits for the concurrency pool.
///
/// ```swift
/// let count = try await pool.readReleasingFirst { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM City") }
/// ```
extension DatabasePool {
    /// Runs `body` in a read snapshot and gives the reader back before returning.
    func readReleasingFirst<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(RecordStoreError) -> T {
        try await BlockingWork.run { () throws(RecordStoreError) -> T in
            do {
                return try self.read(body)
            } catch {
                throw SQLiteEngine.storeError(error)
            }
        }
    }

    /// Runs `body` in a write transaction and gives the writer back before returning.
    func writeReleasingFirst<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(RecordStoreError) -> T {
        try await BlockingWork.run { () throws(RecordStoreError) -> T in
            do {
                return try self.write(body)
            } catch {
                throw SQLiteEngine.storeError(error)
            }
        }
    }
}

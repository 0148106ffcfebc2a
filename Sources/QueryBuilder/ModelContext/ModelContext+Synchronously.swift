import RecordStore
@_spi(StorageEngine) import RecordStoreCore

extension ModelContext {
    /// The synchronous form of an operation: runs its `async` form on the calling thread and
    /// waits for it (RecordStore's `SynchronousCall`), so that each operation of the builder is
    /// written once; on a store whose engine answers only `async` calls (PostgreSQL), throws
    /// ``RecordStoreError/synchronousAccessUnavailable(engine:)``.
    ///
    /// ```swift
    /// public func all() throws -> [T] {
    ///     try synchronously { try await self.all() }
    /// }
    /// ```
    func synchronously<Result>(_ operation: () async throws -> Result) throws -> Result {
        guard store.answersSynchronously else { throw RecordStoreError.synchronousAccessUnavailable(engine: store.engineName) }
        return try SynchronousCall.wait(operation)
    }
}

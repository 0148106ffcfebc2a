import Dispatch

/// Runs blocking work (file I/O through a synchronous API) from `async` code without blocking a
/// cooperative thread: the work runs on a Dispatch queue, and the caller's task is resumed when
/// it is done. GRDB does the same for its own `async` methods. When the `async` caller is work a
/// synchronous caller waits for on its own thread (`SynchronousCall`), the work runs right
/// there instead: that thread is the synchronous caller's to block.
///
/// ```swift
/// let store = try await BlockingWork.run { () throws(RecordStoreError) in try Store.open(path: path) }
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `SynchronousCall`.
@_spi(StorageEngine) public enum BlockingWork {
    /// Runs `work` on a global Dispatch queue and returns its result.
    @_spi(StorageEngine) public static func run<T: Sendable>(_ work: @escaping @Sendable () throws(RecordStoreError) -> T) async throws(RecordStoreError) -> T {
        if SynchronousCall.isWaiting { return try work() }
        let result: Result<T, RecordStoreError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(RecordStoreError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}

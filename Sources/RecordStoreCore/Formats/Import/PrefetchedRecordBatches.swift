import Dispatch
import Foundation

/// Reads an import's batches one ahead, on a thread of its own: while the store saves one
/// batch, the next is decompressed, parsed and built into records. On two cores an import
/// then takes about as long as its slower half, the saving, rather than the sum of both.
///
/// Batches come in file order, one read at a time, and the reader is touched only by its own
/// queue. A read that fails is thrown by the ``next()`` that would have returned its batch, so
/// the batches before it are saved, as without prefetching. Each batch carries the file's
/// progress as it was when the batch was read.
///
/// ```swift
/// let batches = try PrefetchedRecordBatches(RecordFileBatches(path: "cities1000.jsonl.gz", importer: importer))
/// while let batch = try await batches.next() {
///     try await store.save(batch.records)   // the next batch is read meanwhile
/// }
/// ```
final class PrefetchedRecordBatches: @unchecked Sendable {
    /// One batch as read, with the bytes of the file read when it was complete.
    struct Batch: Sendable {
        /// The batch's records, in file order.
        var records: [Record]
        /// Bytes of the file on disk read once the batch was complete.
        var bytesRead: Int64
    }

    /// The batches; only `queue` touches them.
    private var batches: RecordFileBatches
    /// The size of the file on disk.
    let fileSize: Int64
    private let queue = DispatchQueue(label: "RecordImporter.read")
    private let lock = NSLock()
    /// The outcome of the read under way, once done, when nobody waits for it yet.
    private var outcome: Result<Batch?, RecordStoreError>?
    /// Who waits for the read under way.
    private var waiter: CheckedContinuation<Result<Batch?, RecordStoreError>, Never>?
    /// Whether a read was started and its outcome not taken yet.
    private var reading = false

    /// Wraps a batch reader; nothing is read before the first ``next()``.
    init(_ batches: RecordFileBatches) {
        self.batches = batches
        fileSize = batches.fileSize
    }

    /// How many records the file holds, estimated from the bytes the first batch took.
    func estimatedRecordCount(afterFirst batch: Batch) -> Int {
        batch.bytesRead > 0 ? Int(Double(batch.records.count) * Double(fileSize) / Double(batch.bytesRead)) : batch.records.count
    }

    /// The next batch (nil at the end of the file); the one after it is read meanwhile.
    func next() async throws(RecordStoreError) -> Batch? {
        startReading()
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Batch?, RecordStoreError>, Never>) in
            lock.lock()
            if let done = self.outcome {
                self.outcome = nil
                reading = false
                lock.unlock()
                continuation.resume(returning: done)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
        let batch = try outcome.get()
        if batch != nil { startReading() }
        return batch
    }

    /// Starts reading the next batch on the queue unless a read is under way or waiting to be taken.
    private func startReading() {
        lock.lock()
        guard !reading else {
            lock.unlock()
            return
        }
        reading = true
        lock.unlock()
        queue.async { [self] in
            let result: Result<Batch?, RecordStoreError>
            do throws(RecordStoreError) {
                result = .success(try batches.next().map { Batch(records: $0, bytesRead: batches.bytesRead) })
            } catch {
                result = .failure(error)
            }
            lock.lock()
            if let waiter {
                self.waiter = nil
                reading = false
                lock.unlock()
                waiter.resume(returning: result)
            } else {
                outcome = result
                lock.unlock()
            }
        }
    }
}

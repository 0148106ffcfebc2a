/// An `AsyncSequence` of every record a query matches, read in keyset batches so that
/// memory holds one batch at a time. Made by ``Store/stream(matching:inZone:desiredKeys:batchSize:)``.
///
/// ```swift
/// var count = 0
/// for try await _ in store.stream(matching: query, batchSize: 1000) { count += 1 }
/// ```
public struct RecordStream: AsyncSequence, Sendable {
    public typealias Element = Record

    package let store: Store
    package let query: RecordQuery
    package let zone: ZoneID
    package let desiredKeys: [String]?
    package let batchSize: Int

    /// Reads the next batch when the current one is used up.
    public struct AsyncIterator: AsyncIteratorProtocol {
        package let stream: RecordStream
        package var buffer: [Record] = []
        package var position = 0
        package var resume: CursorPayload.ResumePoint?
        package var started = false

        public mutating func next() async throws -> Record? {
            if position < buffer.count {
                defer { position += 1 }
                return buffer[position]
            }
            if started, resume == nil { return nil }
            try Task.checkCancellation()
            let page = try await stream.store.page(
                stream.query, zone: stream.zone, resume: resume, resultsLimit: Swift.max(1, stream.batchSize),
                desiredKeys: stream.desiredKeys, mode: .keyset)
            started = true
            buffer = page.records
            resume = page.next
            position = 0
            guard !buffer.isEmpty else { return nil }
            position = 1
            return buffer[0]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }
}

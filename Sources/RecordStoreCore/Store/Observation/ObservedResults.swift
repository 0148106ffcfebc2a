/// The results of a live query at one moment: records in the query's order, a random-access
/// collection that costs little to keep as the results change.
///
/// The records are kept in chunks of a few hundred, so that changing one record copies one
/// chunk and the list of chunks rather than every record: a snapshot handed to the observer
/// stays valid (a value) while the live query goes on changing its own copy.
///
/// ```swift
/// for try await change in store.observe(query) {
///     print(change.records.count, change.records.first?["name"] ?? "")
/// }
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `RecordObservation`,
/// `LiveResults` and `ResultsChange`.
public struct ObservedResults: RandomAccessCollection, Sendable {
    /// The most records a chunk holds before it is split in two.
    package static let largestChunk = 512

    private var chunks: [[Record]]
    /// The position of each chunk's first record (the count of the records before it).
    private var chunkStarts: [Int]
    public private(set) var count: Int

    /// Results holding these records, already in order.
    public init(_ records: [Record] = []) {
        chunks = []
        chunkStarts = []
        count = records.count
        var start = 0
        while start < records.count {
            let end = Swift.min(start + Self.largestChunk / 2, records.count)
            chunks.append(Array(records[start..<end]))
            chunkStarts.append(start)
            start = end
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Record {
        let chunk = chunkIndex(containing: position)
        return chunks[chunk][position - chunkStarts[chunk]]
    }

    /// The records as one array.
    public var records: [Record] { chunks.flatMap { $0 } }

    /// The chunk holding a position (the last chunk for the end position).
    private func chunkIndex(containing position: Int) -> Int {
        var low = 0
        var high = chunkStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunkStarts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The position a record takes in this order: the count of the records that precede it.
    package func insertionPosition(of record: Record, ordering: RecordOrdering) -> Int {
        // The first chunk whose last record does not precede `record`.
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if let last = chunks[middle].last, ordering.precedes(last, record) { low = middle + 1 } else { high = middle }
        }
        guard low < chunks.count else { return count }
        let chunk = chunks[low]
        var first = 0
        var end = chunk.count
        while first < end {
            let middle = (first + end) / 2
            if ordering.precedes(chunk[middle], record) { first = middle + 1 } else { end = middle }
        }
        return chunkStarts[low] + first
    }

    package mutating func insert(_ record: Record, at position: Int) {
        guard !chunks.isEmpty else {
            chunks = [[record]]
            chunkStarts = [0]
            count = 1
            return
        }
        let chunk = chunkIndex(containing: position)
        chunks[chunk].insert(record, at: position - chunkStarts[chunk])
        count += 1
        if chunks[chunk].count > Self.largestChunk {
            let half = chunks[chunk].count / 2
            let tail = Array(chunks[chunk][half...])
            chunks[chunk].removeSubrange(half...)
            chunks.insert(tail, at: chunk + 1)
            chunkStarts.insert(0, at: chunk + 1)
        }
        recomputeStarts(from: chunk)
    }

    @discardableResult
    package mutating func remove(at position: Int) -> Record {
        let chunk = chunkIndex(containing: position)
        let removed = chunks[chunk].remove(at: position - chunkStarts[chunk])
        count -= 1
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            chunkStarts.remove(at: chunk)
        }
        recomputeStarts(from: chunk)
        return removed
    }

    /// Drops the records from `position` to the end.
    package mutating func removeTail(from position: Int) {
        while count > position { remove(at: count - 1) }
    }

    /// Renumbers the chunks from `chunk` on after one of them grew, shrank, split or went away.
    private mutating func recomputeStarts(from chunk: Int) {
        var start = chunk > 0 ? chunkStarts[chunk - 1] + chunks[chunk - 1].count : 0
        for index in chunk..<chunks.count {
            chunkStarts[index] = start
            start += chunks[index].count
        }
    }
}

import Foundation
import PredicateLanguage

/// Grouping and aggregates in Swift: the memory engine's way, and the SQLite engine's
/// when a residual predicate keeps the work out of SQL. SQL `GROUP BY` gives the same rows.
@_spi(StorageEngine) public struct Aggregation {
    @_spi(StorageEngine) public let groupBy: [String]
    @_spi(StorageEngine) public let aggregates: [AggregateProperty]

    /// Groups by these fields, computing these aggregates per group.
    @_spi(StorageEngine) public init(groupBy: [String], aggregates: [AggregateProperty]) {
        self.groupBy = groupBy
        self.aggregates = aggregates
    }

    /// The running state of one group.
    private struct Accumulator {
        @_spi(StorageEngine) public var groupValues: [Value]
        @_spi(StorageEngine) public var counts: [Int]
        @_spi(StorageEngine) public var integerSums: [Int64?]
        @_spi(StorageEngine) public var doubleSums: [Double]
        @_spi(StorageEngine) public var sawDouble: [Bool]
        @_spi(StorageEngine) public var minimums: [Value]
        @_spi(StorageEngine) public var maximums: [Value]
    }

    /// One dictionary per group, groups in order of first appearance.
    @_spi(StorageEngine) public func rows(_ records: some Sequence<Record>) throws(RecordStoreError) -> [[String: Value]] {
        var groups: [[Value]: Int] = [:]
        var accumulators: [Accumulator] = []
        let empty = { (values: [Value]) in
            Accumulator(
                groupValues: values, counts: Array(repeating: 0, count: aggregates.count),
                integerSums: Array(repeating: 0, count: aggregates.count), doubleSums: Array(repeating: 0, count: aggregates.count),
                sawDouble: Array(repeating: false, count: aggregates.count),
                minimums: Array(repeating: .null, count: aggregates.count), maximums: Array(repeating: .null, count: aggregates.count))
        }
        for record in records {
            // Group keys and string extremes in NFC, as SQL computes them on the NFC column.
            let key = groupBy.map { StringNormalization.nfc(record.value(named: $0)) }
            let index: Int
            if let existing = groups[key] {
                index = existing
            } else {
                index = accumulators.count
                groups[key] = index
                accumulators.append(empty(key))
            }
            for (position, aggregate) in aggregates.enumerated() {
                let value = StringNormalization.nfc(record.value(named: aggregate.key))
                if value.isNull { continue }
                accumulators[index].counts[position] += 1
                switch aggregate.function {
                case .sum, .average:
                    switch value {
                    case .int(let integer):
                        if let sum = accumulators[index].integerSums[position] {
                            let (result, overflow) = sum.addingReportingOverflow(integer)
                            accumulators[index].integerSums[position] = overflow ? nil : result
                        }
                        accumulators[index].doubleSums[position] += Double(integer)
                    case .bool(let flag):
                        accumulators[index].integerSums[position] = accumulators[index].integerSums[position].map { $0 + (flag ? 1 : 0) }
                        accumulators[index].doubleSums[position] += flag ? 1 : 0
                    case .double(let double):
                        accumulators[index].sawDouble[position] = true
                        accumulators[index].doubleSums[position] += double
                    default:
                        throw .invalidQuery("\(aggregate.function.rawValue) of '\(aggregate.key)' needs numbers, and a value is \(value)")
                    }
                case .min:
                    let current = accumulators[index].minimums[position]
                    if current.isNull || RecordOrdering.compare(value, current, comparison: .compare) == .orderedAscending {
                        accumulators[index].minimums[position] = value
                    }
                case .max:
                    let current = accumulators[index].maximums[position]
                    if current.isNull || RecordOrdering.compare(value, current, comparison: .compare) == .orderedDescending {
                        accumulators[index].maximums[position] = value
                    }
                case .count:
                    break
                }
            }
        }
        if groupBy.isEmpty, accumulators.isEmpty { accumulators.append(empty([])) }
        return try accumulators.map { (accumulator: Accumulator) throws(RecordStoreError) -> [String: Value] in
            var row: [String: Value] = [:]
            for (name, value) in zip(groupBy, accumulator.groupValues) where !value.isNull { row[name] = value }
            for (position, aggregate) in aggregates.enumerated() {
                let count = accumulator.counts[position]
                let value: Value
                switch aggregate.function {
                case .count:
                    value = .int(Int64(count))
                case .sum:
                    if count == 0 {
                        value = .null
                    } else if accumulator.sawDouble[position] {
                        value = .double(accumulator.doubleSums[position])
                    } else if let sum = accumulator.integerSums[position] {
                        value = .int(sum)
                    } else {
                        throw .invalidQuery("the sum of '\(aggregate.key)' overflows 64-bit integers")
                    }
                case .average:
                    if count == 0 {
                        value = .null
                    } else if !accumulator.sawDouble[position], let sum = accumulator.integerSums[position] {
                        value = .double(Double(sum) / Double(count))
                    } else {
                        value = .double(accumulator.doubleSums[position] / Double(count))
                    }
                case .min:
                    value = accumulator.minimums[position]
                case .max:
                    value = accumulator.maximums[position]
                }
                if !value.isNull { row[aggregate.name] = value }
            }
            return row
        }
    }
}

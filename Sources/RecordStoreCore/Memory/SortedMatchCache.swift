import PredicateLanguage

/// The memory engine's memory of the queries being paged through: the sorted matches of a
/// few recent queries, valid while the engine's contents stay unchanged.
///
/// Without it every page of a keyset-paged query evaluates the predicate over every record of
/// the type and sorts what follows the cursor: paging through n records in pages of k costs
/// O(n²/k). With it the second page sorts the matches once, and every later page finds the
/// cursor's record by name and slices, so a page costs O(k) while nothing changes. Any change
/// to the engine (a save, a delete, a schema or zone change) bumps the engine's generation and
/// retires every entry, so a cached answer is always the answer a fresh scan would give.
///
/// First pages are not cached: a one-off query with a limit keeps its cheap bounded sort.
package struct SortedMatchCache: Sendable {
    /// What identifies a query's sorted matches: everything but the page bounds.
    package struct Key: Hashable, Sendable {
        package var zone: ZoneID
        package var recordType: String
        /// Whether the subtypes' records are among the matches (``HierarchyQuery``).
        package var includesSubtypes: Bool
        package var predicate: FormatPredicate
        package var sorts: [Sort]
        package var mode: SchemaMode

        package init(_ specification: QuerySpecification) {
            zone = specification.zone
            recordType = specification.recordType
            includesSubtypes = specification.includesSubtypes
            predicate = specification.predicate
            sorts = specification.sorts
            mode = specification.mode
        }
    }

    /// The sorted matches of one query at one generation of the engine.
    package struct Entry: Sendable {
        package var key: Key
        package var generation: UInt64
        /// Every match, in the query's order.
        package var records: [Record]
        /// Where each record name sits in `records`.
        package var indexByRecordName: [NameBytes: Int]

        package init(key: Key, generation: UInt64, sortedRecords: [Record]) {
            self.key = key
            self.generation = generation
            records = sortedRecords
            // Keyed by the name's bytes, as the engines tell records apart: canonically
            // equivalent names are two records.
            var index: [NameBytes: Int] = [:]
            index.reserveCapacity(sortedRecords.count)
            for (position, record) in sortedRecords.enumerated() {
                index[NameBytes(record.recordID.recordName)] = position
            }
            indexByRecordName = index
        }

        /// The records strictly after a keyset position, in order, at most `count` of them
        /// after skipping `skip`.
        ///
        /// When the position's record is still there with the same sort values (the usual case:
        /// nothing changed since the previous page) the page starts right after it; otherwise
        /// every record is tested against the position, which is what an uncached scan does.
        package func page(after position: KeysetPosition?, ordering: RecordOrdering, skip: Int, count: Int?) -> [Record] {
            let remaining: ArraySlice<Record>
            if let position {
                if let index = indexByRecordName[NameBytes(position.recordName)], Self.matches(records[index], position, ordering) {
                    remaining = records[(index + 1)...]
                } else {
                    remaining = ArraySlice(records.filter { ordering.follows($0, position) })
                }
            } else {
                remaining = records[...]
            }
            let afterSkip = remaining.dropFirst(max(0, skip))
            guard let count else { return Array(afterSkip) }
            return Array(afterSkip.prefix(max(0, count)))
        }

        /// Whether a record sits exactly at a keyset position (same name, same sort values).
        private static func matches(_ record: Record, _ position: KeysetPosition, _ ordering: RecordOrdering) -> Bool {
            guard position.sortValues.count == ordering.sorts.count else { return false }
            for (sort, value) in zip(ordering.sorts, position.sortValues) {
                let current = RecordOrdering.sortValue(of: record, for: sort)
                if RecordOrdering.compare(current, value, comparison: sort.comparison) != .orderedSame { return false }
            }
            return true
        }
    }

    /// How many queries the cache remembers at once.
    package static let capacity = 4

    /// The remembered queries, most recently used last.
    private var entries: [Entry] = []

    /// The entry for a query at a generation, if it is remembered and still current.
    package mutating func entry(for key: Key, generation: UInt64) -> Entry? {
        entries.removeAll { $0.generation != generation }
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry
    }

    /// Remembers an entry, forgetting the least recently used one beyond the capacity.
    package mutating func remember(_ entry: Entry) {
        entries.removeAll { $0.key == entry.key }
        entries.append(entry)
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }
}

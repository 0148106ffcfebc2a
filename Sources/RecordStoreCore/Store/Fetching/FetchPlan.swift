import PredicateLanguage

/// How ``Store/fetch(_:)`` runs a request, decided before any read: the engine's count, one
/// `GROUP BY`, or pages of records collected into the result. The synchronous and `async`
/// drivers only run what the plan asks.
package enum FetchPlan {
    /// The count of matches (``Store/count(for:)``).
    case count
    /// One aggregate read, then ordering and paging of the groups in Swift.
    case grouped(GroupedFetch)
    /// Pages of records read one after the other.
    case paged(PagedFetch)

    /// The plan of a (checked) request.
    package init(_ request: FetchRequest, mode: SchemaMode) {
        let pageSize = request.fetchBatchSize > 0 ? request.fetchBatchSize : Store.defaultFetchReadSize
        switch request.resultType {
        case .count:
            self = .count
        case .dictionaries where request.isGrouped:
            self = .grouped(GroupedFetch(request, mode: mode))
        default:
            self = .paged(PagedFetch(request, pageSize: pageSize, mode: mode))
        }
    }
}

/// A dictionary fetch with aggregates or grouping: the engine's rows, then the request's order,
/// offset and limit applied to the groups.
package struct GroupedFetch {
    package let request: FetchRequest
    /// The query whose matches are grouped.
    package let specification: QuerySpecification

    package init(_ request: FetchRequest, mode: SchemaMode) {
        self.request = request
        var specification = QuerySpecification(
            recordType: request.entityName, predicate: request.predicate ?? .truePredicate, zone: request.zoneID, mode: mode)
        specification.includesSubtypes = request.includesSubentities
        self.specification = specification
    }

    package var groupBy: [String] { request.propertiesToGroupBy ?? [] }

    /// The groups ordered by the sorts (on group-by keys or aggregate names), then the group-by
    /// values; then offset and limit.
    package func result(_ engineRows: [[String: Value]]) -> [[String: Value]] {
        var rows = engineRows
        let sorts = request.sortDescriptors
        let groupBy = groupBy
        rows.sort { lhs, rhs in
            for sort in sorts {
                let order = RecordOrdering.compare(lhs[sort.key] ?? .null, rhs[sort.key] ?? .null, comparison: sort.comparison)
                if order != .orderedSame { return sort.ascending ? order == .orderedAscending : order == .orderedDescending }
            }
            for key in groupBy {
                let order = RecordOrdering.compare(lhs[key] ?? .null, rhs[key] ?? .null, comparison: .compare)
                if order != .orderedSame { return order == .orderedAscending }
            }
            return false
        }
        if request.fetchOffset > 0 { rows.removeFirst(min(request.fetchOffset, rows.count)) }
        if request.fetchLimit > 0, rows.count > request.fetchLimit { rows.removeSubrange(request.fetchLimit...) }
        return rows
    }
}

/// A fetch of records, record IDs or dictionaries, read in keyset pages: the first page skips
/// `fetchOffset`, later ones continue after the last record read. Distinct dictionaries read
/// every match and apply offset and limit to the distinct rows.
package struct PagedFetch {
    private let request: FetchRequest
    private let pageSize: Int
    private let mode: SchemaMode
    private let distinct: Bool
    private let fields: [String]?
    private var remaining: Int
    private var after: KeysetPosition?
    /// Records read so far: where the next page starts when a sort walks a relationship and no
    /// keyset position can mark it.
    private var read = 0
    private var finished = false
    private var records: [Record] = []
    private var ids: [RecordID] = []
    private var rows: [[String: Value]] = []
    private var seen = Set<[String: Value]>()
    private var skippedDistinct = 0

    package init(_ request: FetchRequest, pageSize: Int, mode: SchemaMode) {
        self.request = request
        self.pageSize = pageSize
        self.mode = mode
        distinct = request.resultType == .dictionaries && request.returnsDistinctResults
        fields = request.fieldNames
        remaining = !distinct && request.fetchLimit > 0 ? request.fetchLimit : Int.max
    }

    /// The next page to read, or nil when the fetch is complete.
    package mutating func nextPage() -> QuerySpecification? {
        guard !finished, remaining > 0 else { return nil }
        var specification = QuerySpecification(
            recordType: request.entityName, predicate: request.predicate ?? .truePredicate, sorts: request.sortDescriptors,
            zone: request.zoneID, limit: min(pageSize, remaining), mode: mode)
        specification.includesSubtypes = request.includesSubentities
        if let after {
            specification.after = after
        } else {
            specification.offset = (distinct ? 0 : request.fetchOffset) + read
        }
        return specification
    }

    /// Takes the page read for the last ``nextPage()``.
    package mutating func receive(_ page: [Record]) {
        let wanted = min(pageSize, remaining)
        remaining -= page.count
        if page.count < wanted { finished = true }
        read += page.count
        if let last = page.last, KeysetPosition.marksPlaces(in: request.sortDescriptors) {
            after = KeysetPosition(of: last, sorts: request.sortDescriptors)
        }
        switch request.resultType {
        case .records, .count:
            records += page.map { Store.projected($0, fields: fields) }
        case .recordIDs:
            ids += page.map(\.recordID)
        case .dictionaries where !distinct:
            rows += page.map { Store.dictionary($0, fields: fields) }
        case .dictionaries:
            let limit = request.fetchLimit > 0 ? request.fetchLimit : Int.max
            for record in page where rows.count < limit {
                let row = Store.dictionary(record, fields: fields)
                guard seen.insert(row).inserted else { continue }
                if skippedDistinct < request.fetchOffset {
                    skippedDistinct += 1
                } else {
                    rows.append(row)
                }
            }
            if rows.count >= limit { finished = true }
        }
    }

    /// The fetch's result.
    package var result: FetchResult {
        switch request.resultType {
        case .records, .count: .records(records)
        case .recordIDs: .recordIDs(ids)
        case .dictionaries: .dictionaries(rows)
        }
    }
}

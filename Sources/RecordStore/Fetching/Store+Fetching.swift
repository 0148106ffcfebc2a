import Foundation
import PredicateLanguage

extension Store {
    /// The number of records read per round trip when a request sets no batch size.
    static let defaultFetchReadSize = 1000

    /// Checks a request before it runs: entity, numbers, bound variables, aggregates.
    private func check(_ request: FetchRequest) throws(RecordStoreError) -> RecordTypeSchema? {
        guard !request.entityName.isEmpty else { throw .invalidQuery("the entity name is empty") }
        try Identifier.checkRecordType(request.entityName)
        if let predicate = request.predicate { try PredicateNesting.check(predicate) }
        guard request.fetchLimit >= 0, request.fetchOffset >= 0, request.fetchBatchSize >= 0 else {
            throw .invalidQuery("fetchLimit, fetchOffset and fetchBatchSize must not be negative")
        }
        if let variables = request.predicate?.variableNames, !variables.isEmpty {
            throw .invalidQuery("the predicate is a template with unbound variables \(variables.sorted().map { "$" + $0 }.joined(separator: ", ")): bind them with substituting(_:)")
        }
        let schema = try engine.catalog().recordTypes[request.entityName]
        let aggregates = request.aggregates
        if !aggregates.isEmpty || request.propertiesToGroupBy != nil {
            guard request.resultType == .dictionaries else {
                throw .invalidQuery("aggregates and propertiesToGroupBy need the .dictionaries result type")
            }
        }
        for key in (request.propertiesToGroupBy ?? []) + aggregates.map(\.key) {
            if let type = schema?.field(named: key)?.type, type.isList {
                throw .invalidQuery("'\(key)' is a list field: it cannot be grouped or aggregated")
            }
        }
        for aggregate in aggregates where aggregate.function == .sum || aggregate.function == .average {
            guard let type = schema?.field(named: aggregate.key)?.type ?? MetadataField(rawValue: aggregate.key)?.fieldType else { continue }
            guard type == .int64 || type == .double || type == .bool else {
                throw .invalidQuery("\(aggregate.function.rawValue) of '\(aggregate.key)' needs a numeric field, and it has type \(type)")
            }
        }
        if let groupBy = request.propertiesToGroupBy, let fields = request.fieldNames {
            let missing = fields.filter { !groupBy.contains($0) }
            if !missing.isEmpty {
                throw .invalidQuery("with propertiesToGroupBy, the fetched fields must be grouped: \(missing.joined(separator: ", ")) is not")
            }
        }
        return schema
    }

    private func query(of request: FetchRequest) -> RecordQuery {
        RecordQuery(checkedRecordType: request.entityName, predicate: request.predicate ?? .truePredicate, sorts: request.sortDescriptors)
    }

    /// Reads one page of a request: the first page skips `fetchOffset`, later ones continue after `after`.
    func fetchPage(_ request: FetchRequest, after: KeysetPosition?, limit: Int?) throws(RecordStoreError) -> [Record] {
        let query = query(of: request)
        var specification = try specification(query.recordType, query.predicate, query.sorts, request.zoneID, limit)
        if let after {
            specification.after = after
        } else {
            specification.offset = request.fetchOffset
        }
        return try engine.records(specification)
    }

    /// Calls `body` with each page of a request's records, in order, until the limit or the end.
    func forEachPage(_ request: FetchRequest, pageSize: Int, _ body: ([Record]) throws(RecordStoreError) -> Void) throws(RecordStoreError) {
        var remaining = request.fetchLimit > 0 ? request.fetchLimit : Int.max
        var after: KeysetPosition?
        while remaining > 0 {
            let wanted = min(pageSize, remaining)
            let page = try fetchPage(request, after: after, limit: wanted)
            if !page.isEmpty { try body(page) }
            remaining -= page.count
            guard page.count == wanted, let last = page.last else { return }
            after = KeysetPosition(of: last, sorts: request.sortDescriptors)
        }
    }

    /// A record with only the requested fields.
    static func projected(_ record: Record, fields: [String]?) -> Record {
        guard let fields else { return record }
        var copy = record
        copy.fields = record.fields.filter { fields.contains($0.key) }
        return copy
    }

    /// A dictionary of the requested fields (all fields when unset), nil values left out.
    static func dictionary(_ record: Record, fields: [String]?) -> [String: Value] {
        guard let fields else { return record.fields }
        var result: [String: Value] = [:]
        for name in fields {
            let value = record.value(named: name)
            if !value.isNull { result[name] = value }
        }
        return result
    }

    /// Runs a fetch request and returns all of its results.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "City", predicate: try FormatPredicate(format: "countrycode == 'FR'"))
    /// request.sortDescriptors = [Sort("population", ascending: false)]
    /// request.fetchLimit = 5
    /// let names = try store.fetch(request).records.compactMap { $0["name"]?.stringValue }
    /// ```
    public func fetch(_ request: FetchRequest) throws(RecordStoreError) -> FetchResult {
        _ = try check(request)
        let pageSize = request.fetchBatchSize > 0 ? request.fetchBatchSize : Self.defaultFetchReadSize
        switch request.resultType {
        case .count:
            return .count(try count(for: request))
        case .records, .recordIDs:
            var records: [Record] = []
            var ids: [RecordID] = []
            let fields = request.fieldNames
            try forEachPage(request, pageSize: pageSize) { page throws(RecordStoreError) in
                if request.resultType == .records {
                    records += page.map { Self.projected($0, fields: fields) }
                } else {
                    ids += page.map(\.recordID)
                }
            }
            return request.resultType == .records ? .records(records) : .recordIDs(ids)
        case .dictionaries:
            if !request.aggregates.isEmpty || request.propertiesToGroupBy != nil {
                return .dictionaries(try groupedDictionaries(request))
            }
            let fields = request.fieldNames
            guard request.returnsDistinctResults else {
                var rows: [[String: Value]] = []
                try forEachPage(request, pageSize: pageSize) { page throws(RecordStoreError) in
                    rows += page.map { Self.dictionary($0, fields: fields) }
                }
                return .dictionaries(rows)
            }
            var unlimited = request
            unlimited.fetchLimit = 0
            unlimited.fetchOffset = 0
            var seen = Set<[String: Value]>()
            var rows: [[String: Value]] = []
            var skipped = 0
            let limit = request.fetchLimit > 0 ? request.fetchLimit : Int.max
            try forEachPage(unlimited, pageSize: pageSize) { page throws(RecordStoreError) in
                for record in page where rows.count < limit {
                    let row = Self.dictionary(record, fields: fields)
                    guard seen.insert(row).inserted else { continue }
                    if skipped < request.fetchOffset {
                        skipped += 1
                    } else {
                        rows.append(row)
                    }
                }
            }
            return .dictionaries(rows)
        }
    }

    /// One dictionary per group, ordered by the sorts then the group-by values, then offset and limit.
    private func groupedDictionaries(_ request: FetchRequest) throws(RecordStoreError) -> [[String: Value]] {
        let groupBy = request.propertiesToGroupBy ?? []
        let specification = try specification(request.entityName, request.predicate ?? .truePredicate, [], request.zoneID, nil)
        var rows = try engine.aggregate(specification, groupBy: groupBy, aggregates: request.aggregates)
        let sorts = request.sortDescriptors
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

    /// How many results a request gives: the matches, after `fetchOffset` and `fetchLimit`.
    ///
    /// ```swift
    /// try store.count(for: FetchRequest(entityName: "City"))   // 34006
    /// ```
    public func count(for request: FetchRequest) throws(RecordStoreError) -> Int {
        _ = try check(request)
        if request.resultType == .dictionaries, request.returnsDistinctResults || !request.aggregates.isEmpty || request.propertiesToGroupBy != nil {
            var plain = request
            plain.resultType = .dictionaries
            return try fetch(plain).count
        }
        let matches = try engine.count(specification(request.entityName, request.predicate ?? .truePredicate, [], request.zoneID, nil))
        let afterOffset = max(0, matches - request.fetchOffset)
        return request.fetchLimit > 0 ? min(afterOffset, request.fetchLimit) : afterOffset
    }

    /// The records of a request in batches of `fetchBatchSize` (100 when 0): memory holds one batch.
    /// Record results only (`propertiesToFetch` limits the fields).
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "City")
    /// request.fetchBatchSize = 500
    /// for try await batch in store.fetchBatches(request) { print(batch.count) }
    /// ```
    public func fetchBatches(_ request: FetchRequest) -> FetchBatchSequence {
        FetchBatchSequence(store: self, request: request)
    }
}

import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// The branches of a query over a record type's hierarchy (``HierarchyQuery``), one per
/// concrete type, selected by one statement: `SELECT … UNION ALL SELECT … ORDER BY … LIMIT ?`,
/// which the database merges from each table's own ordered reads (SQLite's `MERGE (UNION ALL)`,
/// PostgreSQL's merge append) and stops reading once the page is full. A page of the hierarchy
/// then costs one statement and reads the rows it returns, as a query on one type does, rather
/// than one statement per type each reading `offset + limit` rows.
///
/// Each branch selects its type's number, the expressions SQL orders by (the same in every
/// branch, so the union compares like values) that its row does not already hold, then its row
/// as ``RecordRowReader`` reads it, each field in a column of its own name and type that the
/// branches without it fill with a null (``SQLDialect/null(readAs:)``). A key the row holds as
/// it is (the record name, a number field, on SQLite) is ordered by its column in the row: each
/// row the database merges is no wider than a query on one type reads, plus the number.
/// ``reader(of:)`` reads each branch's columns.
///
/// Nil (the branches then run one by one and are merged in Swift) when there is one branch,
/// when SQL does not order a branch (a collation the database lacks: Swift sorts), or when the
/// branches order by different expressions.
///
/// ```swift
/// if let union = HierarchyUnion(hierarchy, branches: prepared, dialect: dialect) {
///     union.statement(segment: 0, limit: 100)   // SELECT 0, t.rowid, t."$recordName", … UNION ALL SELECT 1, … ORDER BY 11 ASC, 3 ASC LIMIT ? OFFSET ?
/// }
/// ```
@_spi(StorageEngine) public struct HierarchyUnion: Sendable {
    /// The query on the parent type: its offset and limit apply to the union.
    @_spi(StorageEngine) public let specification: QuerySpecification
    /// Each branch's query, planned on its type.
    @_spi(StorageEngine) public let branches: [PreparedQuery]
    /// The number of keyset segments each branch runs (0: one statement, no segment).
    @_spi(StorageEngine) public let segmentCount: Int
    private let dialect: any SQLDialect
    private let keys: [OrderKey]
    /// Each branch's `SELECT` list: its number, the order keys, its row identifier, metadata
    /// and every field column of the union (its own or a null).
    private let selections: [String]
    /// For each branch, where each column its reader reads is in the union's row.
    private let positions: [[Int]]
    /// Where each order key is in the union's row, counting from 1 as `ORDER BY` does.
    private let orderPositions: [Int]

    /// The union of a hierarchy query's planned branches (in ``HierarchyQuery/branches``'
    /// order), or nil when the branches cannot run as one statement.
    @_spi(StorageEngine) public init?(_ hierarchy: HierarchyQuery, branches: [PreparedQuery], dialect: any SQLDialect) {
        guard branches.count > 1, let keys = branches[0].orderKeys,
              branches.allSatisfy({ $0.orderKeys == keys && $0.plan.keysetSegments.count == branches[0].plan.keysetSegments.count })
        else { return nil }
        specification = hierarchy.specification
        self.branches = branches
        self.dialect = dialect
        self.keys = keys
        segmentCount = branches[0].plan.keysetSegments.count
        // The field columns: one per name and type, in the order the branches first have them.
        var slots: [FieldSchema] = []
        var slotIndex: [String: Int] = [:]
        // Each branch's fields, in its schema's order, as the slots they fill.
        var branchSlots: [[Int]] = []
        for branch in branches {
            var filled: [Int] = []
            for field in branch.schema.fields {
                let name = Self.slotName(field)
                if let slot = slotIndex[name] {
                    filled.append(slot)
                } else {
                    slotIndex[name] = slots.count
                    filled.append(slots.count)
                    slots.append(field)
                }
            }
            branchSlots.append(filled)
        }
        let metadata = TableLayout.storedMetadata.map { dialect.metadataExpression($0, alias: "t") }
        let reads = zip(branches, branchSlots).map { branch, filled in
            var own: [Int: String] = [:]
            for (field, slot) in zip(branch.schema.fields, filled) {
                own[slot] = StoredSpelling.readExpression(field: field, alias: "t", dialect: dialect)
            }
            return own
        }
        // A key every branch already selects as it orders by (the record name, a plain field)
        // is ordered by that column; the others get columns of their own after the number.
        let shared = keys.map { key in Self.sharedColumn(key, metadata: metadata, reads: reads) }
        let keyColumns = zip(keys, shared).compactMap { key, column in column == nil ? key.sql : nil }
        let rowPosition = 1 + keyColumns.count
        let firstSlot = rowPosition + 1 + metadata.count
        var next = 1
        orderPositions = shared.map { column in
            switch column {
            case .metadata(let index): return rowPosition + 1 + index + 1
            case .slot(let slot): return firstSlot + slot + 1
            case nil:
                next += 1
                return next
            }
        }
        var selections: [String] = []
        var positions: [[Int]] = []
        for (number, filled) in branchSlots.enumerated() {
            var branchPositions = Array(rowPosition..<firstSlot)
            branchPositions += filled.map { firstSlot + $0 }
            let fields = slots.indices.map { reads[number][$0] ?? dialect.null(readAs: slots[$0].type) }
            let columns = [String(number)] + keyColumns + ["t.\(dialect.rowIdentifier)"] + metadata + fields
            selections.append("SELECT " + columns.joined(separator: ", "))
            positions.append(branchPositions)
        }
        self.selections = selections
        self.positions = positions
    }

    /// A column every branch selects whose expression is the key's own (without arguments):
    /// the union orders by it rather than selecting the key again.
    private enum SharedColumn {
        case metadata(Int)
        case slot(Int)
    }

    private static func sharedColumn(_ key: OrderKey, metadata: [String], reads: [[Int: String]]) -> SharedColumn? {
        guard key.arguments.isEmpty else { return nil }
        if let index = metadata.firstIndex(of: key.sql) { return .metadata(index) }
        guard let slot = reads.first?.first(where: { $0.value == key.sql })?.key,
              reads.allSatisfy({ $0[slot] == key.sql }) else { return nil }
        return .slot(slot)
    }

    /// The union's column of a field: its name and type (two types' fields of one name and
    /// different types keep apart, so that each column has one type).
    private static func slotName(_ field: FieldSchema) -> String { "\(field.name):\(field.type)" }

    /// Whether SQL applies the offset and the limit: no branch has a residual predicate.
    @_spi(StorageEngine) public var pagesInSQL: Bool { branches.allSatisfy { $0.plan.residual == nil } }

    /// The statement of one keyset segment (0 when there are none), with the limit still wanted
    /// (nil for every row) when SQL pages.
    @_spi(StorageEngine) public func statement(segment: Int, limit: Int?) -> SQLStatement {
        var parts: [String] = []
        var arguments: [SQLValue] = []
        let keyArguments = keys.flatMap(\.arguments)
        for (number, branch) in branches.enumerated() {
            let (from, whereArguments) = branch.fromClause(dialect: dialect, adding: segment < segmentCount ? branch.plan.keysetSegments[segment] : nil)
            parts.append(selections[number] + " " + from)
            arguments += keyArguments + whereArguments
        }
        let order = zip(keys, orderPositions).map { key, position in dialect.orderTerm(key, position: position) }
        var sql = parts.joined(separator: " UNION ALL ") + " ORDER BY " + order.joined(separator: ", ")
        if pagesInSQL, limit != nil || specification.offset > 0 {
            let paging = dialect.paging(limit: limit, offset: specification.offset)
            sql += " " + paging.sql
            arguments += paging.arguments
        }
        return SQLStatement(sql, arguments, dialect: dialect)
    }

    /// The branch a row of the union comes from; nil for a row without a branch number (which
    /// the database does not return).
    @_spi(StorageEngine) public func branch(of row: some SQLRow) -> Int? {
        guard let number = row.value(at: 0).integerValue, positions.indices.contains(Int(number)) else { return nil }
        return Int(number)
    }

    /// The reader of a branch's records in the union's rows.
    @_spi(StorageEngine) public func reader(of branch: Int) -> RecordRowReader {
        let prepared = branches[branch]
        return RecordRowReader(schema: prepared.schema, zone: prepared.specification.zone, dialect: dialect, positions: positions[branch])
    }
}

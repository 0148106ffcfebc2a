import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

extension SQLPlanner {
    /// How SQL orders by one sort key.
    @_spi(StorageEngine) public enum OrderExpression: Sendable {
        /// Every record sees the same value (a field no record has): the key does not change the order.
        case constant
        /// The expression to order by, with its arguments; `derived` is the derived column it
        /// reads, whose value a keyset position's string becomes before it is compared.
        case expression(String, [SQLValue], derived: DerivedColumn? = nil)
        /// SQL cannot order as the sort asks (the dialect lacks the collation or the exact distance).
        case unsupported
    }

    /// The SQL expression a sort orders by: a column (strings by their ``DerivedColumn`` for the
    /// sort's comparison when the field has it, else in the dialect's collation), or the
    /// distance from a point.
    @_spi(StorageEngine) public func orderExpression(_ sort: Sort) -> OrderExpression {
        if let metadata = MetadataField(rawValue: sort.key) {
            return ordered(dialect.metadataExpression(metadata, alias: alias), type: metadata.fieldType, comparison: sort.comparison)
        }
        if let walked = relationshipOrderExpression(sort) { return walked }
        guard let field = schema?.field(named: sort.key) else { return .constant }
        if let origin = sort.distanceOrigin {
            guard let distance = distanceExpression(field.name) else { return .unsupported }
            return .expression(distance, [.real(origin.latitude), .real(origin.longitude)])
        }
        if field.type == .string, let derived = DerivedColumn.sortColumn(for: sort.comparison),
           DerivedColumn.columns(for: field).contains(derived) {
            // The derived column's bytes are in the sort's order: an index can serve it.
            return .expression(dialect.derivedColumnExpression(derived, field: field.name, alias: alias), [], derived: derived)
        }
        return ordered(column(field.name), type: field.type, comparison: sort.comparison)
    }

    /// A column ordered as the sort compares its values (strings by the sort's comparison).
    private func ordered(_ column: String, type: FieldType, comparison: SortComparison) -> OrderExpression {
        if type == .bool { return .expression(dialect.booleanAsNumber(column), []) }
        // Sorts by locations, references and bytes are refused before planning (their stored
        // text orders nothing the evaluator orders); should one come, Swift sorts.
        guard type.isSortable else { return .unsupported }
        guard type == .string else { return .expression(column, []) }
        guard let collated = dialect.stringOrder(column, comparison: comparison) else { return .unsupported }
        return .expression(collated, [])
    }

    /// The `ORDER BY` terms and their arguments: the sorts, then the record name; nil when SQL
    /// cannot order as asked. Nil sorts first ascending and last descending on every dialect.
    @_spi(StorageEngine) public func orderClause(_ sorts: [Sort]) -> (String, [SQLValue])? {
        guard let keys = orderKeys(sorts) else { return nil }
        return (keys.map { dialect.orderTerm($0) }.joined(separator: ", "), keys.flatMap(\.arguments))
    }

    /// The expressions SQL orders by, most significant first: the sorts' (those every record sees
    /// the same value of left out), then the record name's; nil when SQL cannot order as asked.
    /// ``orderClause(_:)`` writes them as terms; a union of branches selects them as columns.
    ///
    /// ```swift
    /// planner.orderKeys([Sort("age")])?.map(\.sql)   // ["t.\"age\"", "t.\"$recordName\""]
    /// ```
    @_spi(StorageEngine) public func orderKeys(_ sorts: [Sort]) -> [OrderKey]? {
        var keys: [OrderKey] = []
        for sort in sorts {
            switch orderExpression(sort) {
            case .constant:
                continue
            case .unsupported:
                return nil
            case .expression(let sql, let arguments, _):
                keys.append(OrderKey(sql: sql, arguments: arguments, ascending: sort.ascending, isRecordName: false))
            }
        }
        keys.append(OrderKey(sql: dialect.codePointOrder(column(TableLayout.recordNameColumn)), arguments: [], ascending: true, isRecordName: true))
        return keys
    }
}

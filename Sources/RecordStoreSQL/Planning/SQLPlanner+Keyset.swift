import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

extension SQLPlanner {
    /// The rows strictly after a keyset position in the order of the sorts, then the record name,
    /// as conditions to run one after the other (each in the query's order); nil when SQL cannot
    /// order as the sorts ask.
    ///
    /// For each sort: the rows equal on every earlier key and after on this one, or equal on all
    /// keys with a greater record name. Ascending order puts nil first, descending last (as the
    /// plan's `ORDER BY` does on every dialect). A leading "at or after on the first key" range
    /// lets an index seek; when the first key is descending and not nil, the rows where it is nil
    /// (which come last) are a second segment, so that the first stays a plain range `x <= ?` an
    /// index can seek.
    @_spi(StorageEngine) public func keysetSegments(_ sorts: [Sort], after position: KeysetPosition) -> [SQLCondition]? {
        typealias Part = (sql: String, arguments: [SQLValue])
        var equalities: [Part] = []
        var alternatives: [Part] = []
        var leading: Part?
        var nullSegment: Part?
        for (index, sort) in sorts.enumerated() where index < position.sortValues.count {
            let x: String
            let xa: [SQLValue]
            let derived: DerivedColumn?
            switch orderExpression(sort) {
            case .constant: continue
            case .unsupported: return nil
            case .expression(let sql, let arguments, let derivedColumn): (x, xa, derived) = (sql, arguments, derivedColumn)
            }
            let value = position.sortValues[index]
            let after: Part?
            let equal: Part
            let atOrAfter: Part?
            let isFirst = equalities.isEmpty
            if value.isNull {
                equal = ("\(x) IS NULL", xa)
                after = sort.ascending ? ("\(x) IS NOT NULL", xa) : nil
                atOrAfter = sort.ascending ? nil : equal
            } else {
                let argument = derived.map { $0.value(of: value) } ?? StoredValueEncoding.encode(value)
                equal = ("\(x) = ?", xa + [argument])
                if sort.ascending {
                    after = ("\(x) > ?", xa + [argument])
                    atOrAfter = ("\(x) >= ?", xa + [argument])
                } else if isFirst {
                    after = ("\(x) < ?", xa + [argument])
                    atOrAfter = ("\(x) <= ?", xa + [argument])
                    nullSegment = ("\(x) IS NULL", xa)
                } else {
                    after = ("(\(x) < ? OR \(x) IS NULL)", xa + [argument] + xa)
                    atOrAfter = nil
                }
            }
            if isFirst { leading = atOrAfter }
            if let after {
                let parts = equalities + [after]
                alternatives.append((parts.map(\.sql).joined(separator: " AND "), parts.flatMap(\.arguments)))
            }
            equalities.append(equal)
        }
        let recordName = dialect.codePointOrder(column(TableLayout.recordNameColumn))
        let nameParts: [Part] = equalities + [("\(recordName) > ?", [.text(position.recordName)])]
        alternatives.append((nameParts.map(\.sql).joined(separator: " AND "), nameParts.flatMap(\.arguments)))
        var sql = "(" + alternatives.map { "(\($0.sql))" }.joined(separator: " OR ") + ")"
        var arguments = alternatives.flatMap(\.arguments)
        if let leading {
            sql = "\(leading.sql) AND \(sql)"
            arguments = leading.arguments + arguments
        }
        var segments = [SQLCondition.exact(sql, arguments)]
        if let nullSegment { segments.append(.exact(nullSegment.sql, nullSegment.arguments)) }
        return segments
    }
}

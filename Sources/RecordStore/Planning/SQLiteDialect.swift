/// SQLite: double-quoted identifiers, `?` placeholders, registered `query_*` functions
/// and collations, FTS5 and R*Tree tables.
struct SQLiteDialect: SQLDialect {
    var name: String { "sqlite" }

    func quote(_ identifier: String) -> String {
        // Identifiers are checked names almost always free of quotes: skip Foundation then.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    func numberPlaceholders(_ sql: String) -> String { sql }

    var rowIdentifier: String { "rowid" }

    func comparisonTest(predicate: String, typeCode: Int, value: String) -> String {
        "query_test(\(predicate), \(typeCode), \(value))"
    }

    func fullTextCondition(recordType: String, row: String) -> String {
        let table = quote(TableLayout.fullTextTable(recordType))
        return "\(row) IN (SELECT rowid FROM \(table) WHERE \(table) MATCH ?)"
    }

    func fullTextQuery(anyOf tokens: [String]) -> String {
        tokens.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
    }

    func boundingBoxCondition(recordType: String, field: String, row: String) -> String {
        let table = quote(TableLayout.locationIndexTable(recordType, field: field))
        return "\(row) IN (SELECT id FROM \(table) WHERE maxLatitude >= ? AND minLatitude <= ? AND maxLongitude >= ? AND minLongitude <= ?)"
    }

    func distance(latitude: String, longitude: String) -> String {
        "query_distance(\(latitude), \(longitude), ?, ?)"
    }

    func collate(_ expression: String, comparison: SortComparison) -> String {
        guard let collation = comparison.collationName else { return expression }
        return "\(expression) COLLATE \(collation)"
    }
}

import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// SQLite: double-quoted identifiers, `?` placeholders, `1`/`0` for booleans, nulls first
/// ascending (SQLite's default), `BINARY` (code-point) string order, FTS5 tables, band indexes
/// for locations (``SQLiteLocationGrid``), and callbacks into Swift for what SQL cannot do
/// natively: `query_test` (the evaluator's comparison on one value), `query_distance` (the
/// evaluator's great-circle distance) and the `query_*` collations of ``SortComparison``.
///
/// Without a registry (`SQLiteDialect(registry: nil)`) the dialect has no callbacks, as a
/// server database: the planner then leaves those comparisons to the residual and sorts
/// localized orders in Swift. The tests run it so, to check that fallback on real SQL.
///
/// ```swift
/// let dialect = SQLiteDialect(registry: ComparisonTestRegistry())
/// dialect.stringOrder("t.\"name\"", comparison: .localized)   // t."name" COLLATE query_localized
/// ```
struct SQLiteDialect: SQLDialect {
    /// The comparisons `query_test` runs; nil when the connection has no callbacks.
    let registry: ComparisonTestRegistry?

    var name: String { "sqlite" }

    func quote(_ identifier: String) -> String {
        Self.quote(identifier)
    }

    /// A double-quoted identifier, inner quotes doubled.
    static func quote(_ identifier: String) -> String {
        // Identifiers are checked names almost always free of quotes: skip Foundation then.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    func numberPlaceholders(_ sql: String) -> String { sql }

    var rowIdentifier: String { "rowid" }
    var seeksListedValuesInOwnSubquery: Bool { true }

    func literal(_ value: Bool) -> String { value ? "1" : "0" }

    var sortsNullsFirstAscending: Bool { true }

    /// SQLite's text binding stops at a NUL character.
    func bindsExactly(_ value: SQLValue) -> Bool {
        if case .text(let text) = value { return !text.utf8.contains(0) }
        return true
    }

    func stringOrder(_ expression: String, comparison: SortComparison) -> String? {
        guard let collation = comparison.collationName else { return expression }
        return registry == nil ? nil : "\(expression) COLLATE \(collation)"
    }

    func comparisonTest(_ predicate: FormatPredicate, typeCode: Int, value: String) throws(RecordStoreError) -> SQLCondition? {
        guard let registry else { return nil }
        let number = try registry.register(predicate)
        return .exact("query_test(?, \(typeCode), \(value))", [.integer(number)])
    }

    /// `query_refuse`, which throws its message (``SQLiteFunctions``); none without callbacks.
    func refusal(depending expression: String) -> String? {
        registry == nil ? nil : "query_refuse(?, \(expression)) = 0"
    }

    func distance(latitude: String, longitude: String) -> String? {
        registry == nil ? nil : "query_distance(\(latitude), \(longitude), ?, ?)"
    }

    func containsCondition(_ expression: String) -> String {
        "instr(\(expression), ?) > 0"
    }

    func endsWithCondition(_ expression: String) -> String {
        "substr(\(expression), -?) = ?"
    }

    func patternCondition(_ expression: String, pattern: LikePattern) -> SQLCondition {
        // GLOB compares code points, case and all; `?` reads one UTF-8 character. A literal `*`,
        // `?` or `[` is a one-member set (`]`, `^` and `-` are literal outside a set).
        let glob = pattern.translated(anyRun: "*", anyOne: "?") { scalar in
            switch scalar {
            case "*", "?", "[": "[\(scalar)]"
            default: String(scalar)
            }
        }
        return .exact("\(expression) GLOB ?", [.text(glob)])
    }

    var unlimited: SQLValue { .integer(-1) }

    func booleanAsNumber(_ expression: String) -> String { expression }

    func listMembers(recordType: String, field: String) -> (table: String, sharedByFields: Bool) {
        (quote(TableLayout.listTable(recordType)), true)
    }

    /// SQLite's `json_each`: a row per member, its `value` an integer, a real, text or null, as
    /// the evaluator's callback (which the planner's tests of `l.value` call) reads it. None
    /// without callbacks: SQL alone cannot put a member in NFC, nor tell JSON's `"NaN"` from text.
    func jsonArrayMembers(_ expression: String, elementType: FieldType) -> String? {
        registry == nil ? nil : "json_each(\(expression))"
    }

    func fullTextCondition(recordType: String, alias: String) -> String {
        let table = quote(SQLiteLayout.fullTextTable(recordType))
        return "\(alias).rowid IN (SELECT rowid FROM \(table) WHERE \(table) MATCH ?)"
    }

    /// FTS5's query: each token a quoted string, a group's tokens joined by `OR` (within
    /// parentheses when there are other groups), the groups by `AND` (`("new" OR "york") AND "city"`).
    func fullTextQuery(allOf groups: [[String]]) -> String? {
        let clauses = groups.map { group in
            let tokens = group.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
            return groups.count > 1 && group.count > 1 ? "(\(tokens))" : tokens
        }
        return clauses.joined(separator: " AND ")
    }

    /// A box through the location field's band index (``SQLiteLocationGrid``).
    func boundingBoxCondition(
        recordType: String, field: String, alias: String, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>
    ) -> SQLCondition {
        SQLiteLocationGrid.boxCondition(recordType: recordType, field: field, alias: alias, latitudes: latitudes, longitudes: longitudes)
    }
}

import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// A portable SQL dialect for the published planner (`RecordStoreSQL`): double-quoted
/// identifiers, `?` placeholders, no callbacks into Swift (so the planner leaves what SQL cannot
/// do exactly to the residual, as it does for a database server), `LIKE`-free patterns through
/// `GLOB`, and no full-text or location indexes. ``DictionaryEngine`` explains its queries with it.
///
/// ```swift
/// let plan = try SQLPlanner(dialect: PlanningDialect(), schema: schema, recordType: "City").plan(query)
/// ```
struct PlanningDialect: SQLDialect {
    var name: String { "portable" }

    func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    func numberPlaceholders(_ sql: String) -> String { sql }

    var rowIdentifier: String { "rowid" }
    var seeksListedValuesInOwnSubquery: Bool { true }

    func literal(_ value: Bool) -> String { value ? "1" : "0" }

    var sortsNullsFirstAscending: Bool { true }

    func bindsExactly(_ value: SQLValue) -> Bool {
        if case .text(let text) = value { return !text.utf8.contains(0) }
        return true
    }

    /// Code-point order only: the localized orders are left to Swift.
    func stringOrder(_ expression: String, comparison: SortComparison) -> String? {
        comparison == .compare ? expression : nil
    }

    func comparisonTest(_ predicate: FormatPredicate, typeCode: Int, value: String) throws(RecordStoreError) -> SQLCondition? { nil }

    func refusal(depending expression: String) -> String? { nil }

    func distance(latitude: String, longitude: String) -> String? { nil }

    func containsCondition(_ expression: String) -> String { "instr(\(expression), ?) > 0" }

    func endsWithCondition(_ expression: String) -> String { "substr(\(expression), -?) = ?" }

    func patternCondition(_ expression: String, pattern: LikePattern) -> SQLCondition {
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

    /// No full-text index: every row is a candidate, and the residual decides.
    func fullTextCondition(recordType: String, alias: String) -> String { "1 = 1 OR ? IS NULL" }

    func fullTextQuery(allOf groups: [[String]]) -> String? { nil }

    /// No location index: a box on the stored latitude and longitude columns.
    func boundingBoxCondition(
        recordType: String, field: String, alias: String, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>
    ) -> SQLCondition {
        let latitude = "\(alias).\(quote(TableLayout.latitudeColumn(field)))"
        let longitude = "\(alias).\(quote(TableLayout.longitudeColumn(field)))"
        return .superset(
            "\(latitude) BETWEEN ? AND ? AND \(longitude) BETWEEN ? AND ?",
            [.real(latitudes.lowerBound), .real(latitudes.upperBound), .real(longitudes.lowerBound), .real(longitudes.upperBound)])
    }
}

/// What differs between SQL databases in the planner's output: identifier quoting,
/// placeholders, and the functions, collations and indexes for folded comparisons,
/// full-text and location search. Everything else in planning is shared.
protocol SQLDialect: Sendable {
    /// The dialect's name, shown in plans.
    var name: String { get }
    /// A quoted identifier (the name is already checked to be letters, digits, `_` and `$`).
    func quote(_ identifier: String) -> String
    /// The statement with the planner's `?` markers turned into the dialect's placeholders.
    func numberPlaceholders(_ sql: String) -> String
    /// The row identifier column of a record table.
    var rowIdentifier: String { get }
    /// A call that runs the evaluator's comparison number `predicate` (a placeholder) on a
    /// stored value of the type code; true or false, never null.
    func comparisonTest(predicate: String, typeCode: Int, value: String) -> String
    /// A condition that the row is among the full-text matches of the one bound query.
    func fullTextCondition(recordType: String, row: String) -> String
    /// The full-text query matching any of the tokens.
    func fullTextQuery(anyOf tokens: [String]) -> String
    /// A condition that the row's location field lies in a box with four bound values:
    /// minimum latitude, maximum latitude, minimum longitude, maximum longitude.
    func boundingBoxCondition(recordType: String, field: String, row: String) -> String
    /// The great-circle distance in meters from columns of latitude and longitude to two bound values.
    func distance(latitude: String, longitude: String) -> String
    /// An ordering expression with a string comparison.
    func collate(_ expression: String, comparison: SortComparison) -> String
}

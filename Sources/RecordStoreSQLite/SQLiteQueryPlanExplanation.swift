import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// SQLite's `EXPLAIN QUERY PLAN` of a statement: its lines, and the indexes they name
/// (B-tree indexes, and the FTS5 virtual tables).
struct SQLiteQueryPlanExplanation {
    /// The `detail` column of each line.
    let details: [String]
    /// The indexes used, in order of first mention.
    let indexes: [String]
    /// The rows each line is expected to visit (``SQLiteRowEstimates``), nil where none is known.
    let estimatedRows: [Int?]

    /// Explains a statement on a connection.
    init(statement: SQLStatement, _ db: Database) throws {
        details = try Row.fetchAll(
            db, sql: "EXPLAIN QUERY PLAN \(statement.sql)", arguments: SQLiteValueConversion.statementArguments(statement.arguments)
        ).map { row -> String in row["detail"] ?? "" }
        var indexes: [String] = []
        for detail in details {
            for marker in ["USING COVERING INDEX ", "USING INDEX "] {
                if let range = detail.range(of: marker) {
                    let name = String(detail[range.upperBound...].prefix { $0 != " " })
                    if !indexes.contains(name) { indexes.append(name) }
                }
            }
            if detail.contains("VIRTUAL TABLE INDEX"), let name = detail.split(separator: " ").dropFirst().first {
                if !indexes.contains(String(name)) { indexes.append(String(name)) }
            }
        }
        self.indexes = indexes
        let estimates = try SQLiteRowEstimates(db)
        let tables = SQLiteRowEstimates.tableAliases(in: statement.sql)
        estimatedRows = details.map { estimates.rows(for: $0, tables: tables) }
    }

    /// The explanation as ``SQLExecutor/explain(_:engine:on:explaining:)`` takes it.
    var explained: ExplainedStatement {
        ExplainedStatement(details: details, indexes: indexes, estimatedRows: estimatedRows)
    }
}

// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// PostgreSQL's `EXPLAIN` of a statement, as lines, with the indexes it uses.
///
/// ```swift
/// let explanation = try await PostgresQueryPlanExplanation(statement: statement, connection: connection)
/// explanation.indexes   // ["City$population$index"]
/// ```
struct PostgresQueryPlanExplanation {
    /// `EXPLAIN`'s lines, as PostgreSQL printed them.
    let details: [String]
    /// The indexes the plan scans, in order of first use.
    let indexes: [String]
    /// The rows PostgreSQL's planner expects each line's node to return (its `rows=`), nil
    /// for lines that are not nodes (`Filter:`, `Index Cond:`).
    let estimatedRows: [Int?]

    init(statement: SQLStatement, connection: PostgresSQLConnection) async throws {
        var lines: [String] = []
        try await connection.forEachRow(SQLStatement(sql: "EXPLAIN " + statement.sql, arguments: statement.arguments)) { row in
            if case .text(let line) = row.value(at: 0) { lines.append(line) }
            return true
        }
        details = lines
        var indexes: [String] = []
        for line in lines {
            for marker in ["Index Scan using ", "Index Scan Backward using ", "Index Only Scan using ", "Index Only Scan Backward using ", "Bitmap Index Scan on "] {
                guard let range = line.range(of: marker) else { continue }
                var name = String(line[range.upperBound...].prefix { $0 != " " })
                if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
                if !indexes.contains(name) { indexes.append(name) }
            }
        }
        self.indexes = indexes
        estimatedRows = lines.map { line in
            guard let range = line.range(of: " rows=") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// The explanation as ``SQLExecutor/explain(_:engine:on:explaining:)`` takes it.
    var explained: ExplainedStatement {
        ExplainedStatement(details: details, indexes: indexes, estimatedRows: estimatedRows)
    }
}
#endif

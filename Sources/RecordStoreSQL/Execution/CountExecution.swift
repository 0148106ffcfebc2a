import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// How many records a query selects: `SELECT count(*)` when SQL filters exactly, otherwise
/// the rows SQL returns counted after the residual predicate (``SQLExecutor`` runs it).
///
/// ```swift
/// var execution = try CountExecution(prepared, dialect: dialect)
/// try connection.forEachRow(execution.statement) { row in try execution.accept(row) }
/// execution.count
/// ```
@_spi(StorageEngine) public struct CountExecution {
    /// The one statement to run.
    @_spi(StorageEngine) public let statement: SQLStatement
    /// The count so far.
    @_spi(StorageEngine) public private(set) var count = 0
    private let reader: RecordRowReader
    private let residual: CompiledPredicate?
    private let searchable: [String]

    /// Starts counting a query's matches.
    @_spi(StorageEngine) public init(_ prepared: PreparedQuery, dialect: any SQLDialect) throws(RecordStoreError) {
        reader = prepared.reader(dialect: dialect)
        residual = try prepared.compiledResidual()
        searchable = prepared.schema.searchableFieldNames
        let (from, arguments) = prepared.fromClause(dialect: dialect)
        statement = SQLStatement(residual == nil ? "SELECT count(*) \(from)" : "SELECT \(reader.selection) \(from)", arguments, dialect: dialect)
    }

    /// Takes one row; always wants more.
    @_spi(StorageEngine) public mutating func accept(_ row: some SQLRow) throws -> Bool {
        guard let residual else {
            if case .integer(let total) = row.value(at: 0) { count = Int(total) }
            return false
        }
        do {
            if try residual.evaluate(RecordObject(record: try reader.record(from: row), searchableFields: searchable)) {
                count += 1
            }
        } catch {
            throw RecordStoreError(evaluating: error)
        }
        return true
    }
}

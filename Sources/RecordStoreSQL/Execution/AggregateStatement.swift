import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// `SELECT groups, aggregates … GROUP BY groups` for a query SQL filters exactly, and the
/// dictionaries its rows become; the same rows ``Aggregation`` computes in Swift.
///
/// ```swift
/// let aggregate = AggregateStatement(prepared, groupBy: ["countrycode"], aggregates: [total], dialect: dialect)
/// try connection.forEachRow(aggregate.statement) { row in rows.append(aggregate.dictionary(from: row)); return true }
/// ```
@_spi(StorageEngine) public struct AggregateStatement {
    /// The statement to run.
    @_spi(StorageEngine) public let statement: SQLStatement
    /// Each selected column: its name in the dictionary, and the field type to decode it as
    /// (nil: a number the database computed).
    private let columns: [(name: String, type: FieldType?)]

    /// The statement for a prepared query (whose plan has no residual). A key through a to-one
    /// (`department.name`) reads the referenced record's value (``PreparedQuery/walkedValue(_:)``);
    /// throws ``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)`` for one SQL does not read.
    @_spi(StorageEngine) public init(_ prepared: PreparedQuery, groupBy: [String], aggregates: [AggregateProperty], dialect: any SQLDialect) throws(RecordStoreError) {
        let schema = prepared.schema
        var selectionArguments: [SQLValue] = []
        func columnAndType(_ key: String) throws(RecordStoreError) -> (String, FieldType)? {
            if let metadata = MetadataField(rawValue: key) {
                return (dialect.metadataExpression(metadata, alias: "t"), metadata.fieldType)
            }
            if let walked = try prepared.walkedValue(key) {
                selectionArguments += walked.arguments
                return (walked.sql, walked.type)
            }
            guard let field = schema.field(named: key) else { return nil }
            let column = dialect.storedValueExpression(field: field, alias: "t")
            return (field.type == .bool ? dialect.booleanAsNumber(column) : column, field.type)
        }
        var selections: [String] = []
        var groupTerms: [String] = []
        var columns: [(name: String, type: FieldType?)] = []
        for key in groupBy {
            let known = try columnAndType(key)
            let (expression, type) = known ?? ("NULL", .string)
            selections.append(expression)
            // A key that names no field groups nothing (every row has null there); SQL
            // databases other than SQLite refuse a constant in GROUP BY. Groups are named by
            // their position in the select list, which holds each expression's arguments once.
            if known != nil { groupTerms.append("\(selections.count)") }
            columns.append((key, type))
        }
        for aggregate in aggregates {
            let (expression, type) = try columnAndType(aggregate.key) ?? ("NULL", .string)
            switch aggregate.function {
            case .count: selections.append("COUNT(\(expression))"); columns.append((aggregate.name, nil))
            case .sum: selections.append("SUM(\(expression))"); columns.append((aggregate.name, nil))
            case .average: selections.append("AVG(\(expression))"); columns.append((aggregate.name, nil))
            case .min: selections.append("MIN(\(expression))"); columns.append((aggregate.name, type))
            case .max: selections.append("MAX(\(expression))"); columns.append((aggregate.name, type))
            }
        }
        let (from, arguments) = prepared.fromClause(dialect: dialect)
        var sql = "SELECT \(selections.joined(separator: ", ")) \(from)"
        if !groupTerms.isEmpty { sql += " GROUP BY \(groupTerms.joined(separator: ", "))" }
        statement = SQLStatement(sql, selectionArguments + arguments, dialect: dialect)
        self.columns = columns
    }

    /// The dictionary of one row: group-by values and aggregates, nil values left out.
    @_spi(StorageEngine) public func dictionary(from row: some SQLRow) -> [String: Value] {
        var result: [String: Value] = [:]
        for (index, column) in columns.enumerated() {
            let stored = row.value(at: index)
            let value: Value
            if let type = column.type {
                value = StoredValueEncoding.decode(stored, as: type)
            } else {
                switch stored {
                case .integer(let integer): value = .int(integer)
                case .real(let double): value = .double(double)
                default: value = .null
                }
            }
            if !value.isNull { result[column.name] = value }
        }
        return result
    }
}

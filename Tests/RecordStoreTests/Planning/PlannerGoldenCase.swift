import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// One golden case of the planner: a query and the exact plan the SQLite dialect makes of it.
struct PlannerGoldenCase: Sendable, CustomStringConvertible {
    var format: String
    var arguments: [Value] = []
    var sorts: [Sort] = []
    /// A keyset resume point (the sort values and record name of the last record of a page).
    var after: KeysetPosition? = nil
    /// Whether the dialect has its callbacks into Swift (the SQLite engine's default), or plans as a server.
    var callbacks = true
    /// The plan as ``PlannerGoldenCase/render(_:)`` prints it.
    var expected: String

    var description: String {
        format + (sorts.isEmpty ? "" : " sorted by \(sorts.map(\.description).joined(separator: ", "))")
            + (after == nil ? "" : " after a keyset position") + (callbacks ? "" : " (no callbacks)")
    }

    /// The schema every case plans against: one field of each type the planner treats differently.
    static let schema = RecordTypeSchema(name: "City", fields: [
        FieldSchema(name: "name", type: .string, isSearchable: true),
        FieldSchema(name: "population", type: .int64),
        FieldSchema(name: "elevation", type: .double),
        FieldSchema(name: "capital", type: .bool),
        FieldSchema(name: "founded", type: .date),
        FieldSchema(name: "location", type: .location),
        FieldSchema(name: "tags", type: .list(.string)),
        FieldSchema(name: "codes", type: .list(.int64)),
    ])

    /// The plan of this case, with a fresh comparison-test registry (so test numbers start at 1).
    func plan() throws -> SQLPlan {
        let predicate = try FormatPredicate(format: format, argumentArray: arguments)
        let dialect = SQLiteDialect(registry: callbacks ? ComparisonTestRegistry() : nil)
        var specification = QuerySpecification(recordType: "City", predicate: predicate, sorts: sorts)
        specification.after = after
        return try SQLPlanner(dialect: dialect, schema: Self.schema, recordType: "City").plan(specification)
    }

    /// A plan as lines of text: the `WHERE` clause and its arguments, the `ORDER BY` terms (or
    /// that Swift sorts), the residual predicate, and each keyset segment.
    static func render(_ plan: SQLPlan) -> String {
        func arguments(_ values: [SQLValue]) -> String { values.map(\.description).joined(separator: ", ") }
        var lines = ["WHERE \(plan.whereClause)"]
        if !plan.whereArguments.isEmpty { lines.append("  ARGUMENTS \(arguments(plan.whereArguments))") }
        lines.append("ORDER BY \(plan.orderBy ?? "(sorted in Swift)")")
        if !plan.orderArguments.isEmpty { lines.append("  ARGUMENTS \(arguments(plan.orderArguments))") }
        if let residual = plan.residual { lines.append("RESIDUAL \(residual.predicateFormat)") }
        for segment in plan.keysetSegments {
            lines.append("KEYSET \(segment.sql ?? "(none)")")
            if !segment.arguments.isEmpty { lines.append("  ARGUMENTS \(arguments(segment.arguments))") }
        }
        return lines.joined(separator: "\n")
    }
}

import Foundation
import GRDB
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
#if PostgreSQL
import PostgresNIO
#endif

/// One walked query of the relationships section beside the same query written by hand: the
/// record type, predicate and sorts, and the hand-written SQL with `?` placeholders.
struct WalkedQuery {
    let name: String
    let recordType: String
    let format: String
    let sorts: [Sort]
    let sql: String
    let arguments: [SQLValue]
}

/// The walked forms SQL plans beyond the section's first three (an aggregate over a to-many, a
/// sort by a to-one) on SQLite, and all five on PostgreSQL, on the same graph, each beside the
/// same query by hand on the same tables. Target: within 1.25x.
extension RelationshipsSection {
    /// The section's three queries (a to-one, `ANY` over a to-many, `@count`), then an `@avg`
    /// over a to-many and a sort by a to-one's field, with SQL as a person would write them.
    static func walkedQueries(prefix: String) -> [WalkedQuery] {
        let zone = SQLValue.text(StoreSection.defaultZoneKey)
        let reference = SQLValue.text(prefix)
        return [
            WalkedQuery(
                name: "to-one: department.name == \"Department 42\"", recordType: "Employee", format: "department.name == 'Department 42'", sorts: [],
                sql: #"SELECT e.* FROM "Employee" AS e JOIN "Department" AS d ON e."department" = ? || d."$recordName" AND d."$zone" = e."$zone" "#
                    + #"WHERE e."$zone" = ? AND d."name" = ? ORDER BY e."$recordName""#,
                arguments: [reference, zone, .text("Department 42")]),
            WalkedQuery(
                name: "ANY over a to-many: ANY employees.salary > 149900", recordType: "Department", format: "ANY employees.salary > 149900", sorts: [],
                sql: #"SELECT d.* FROM "Department" AS d WHERE d."$zone" = ? AND EXISTS (SELECT 1 FROM "Employee" AS e "#
                    + #"WHERE e."$zone" = d."$zone" AND e."department" = ? || d."$recordName" AND e."salary" > ?) ORDER BY d."$recordName""#,
                arguments: [zone, reference, .integer(149_900)]),
            WalkedQuery(
                name: "@count filter: employees.@count > 60", recordType: "Department", format: "employees.@count > 60", sorts: [],
                sql: #"SELECT d.* FROM "Department" AS d WHERE d."$zone" = ? AND (SELECT count(*) FROM "Employee" AS e "#
                    + #"WHERE e."$zone" = d."$zone" AND e."department" = ? || d."$recordName") > ? ORDER BY d."$recordName""#,
                arguments: [zone, reference, .integer(60)]),
            WalkedQuery(
                name: "aggregate over a to-many: employees.@avg.salary > 95000", recordType: "Department", format: "employees.@avg.salary > 95000", sorts: [],
                sql: #"SELECT d.* FROM "Department" AS d WHERE d."$zone" = ? AND (SELECT avg(e."salary") FROM "Employee" AS e "#
                    + #"WHERE e."$zone" = d."$zone" AND e."department" = ? || d."$recordName") > ? ORDER BY d."$recordName""#,
                arguments: [zone, reference, .integer(95_000)]),
            WalkedQuery(
                name: "sort by a to-one: salary > 149000 sorted by department.name", recordType: "Employee", format: "salary > 149000",
                sorts: [Sort("department.name")],
                sql: #"SELECT e.* FROM "Employee" AS e LEFT JOIN "Department" AS d ON d."$zone" = e."$zone" AND e."department" = ? || d."$recordName" "#
                    + #"WHERE e."$zone" = ? AND e."salary" > ? ORDER BY d."name" NULLS FIRST, e."$recordName""#,
                arguments: [reference, zone, .integer(149_000)]),
        ]
    }

    /// Measures the aggregate and the sort on the SQLite store, then every walked query on
    /// PostgreSQL (when `QUERY_BENCH_POSTGRES_URL` names a server) on a copy of the same graph.
    func measureWalkedForms(report: BenchmarkReport, store: Store, queue: DatabaseQueue, prefix: String) async throws {
        for query in Self.walkedQueries(prefix: prefix).suffix(2) {
            let predicate = try FormatPredicate(format: query.format)
            var ourCount = 0
            var handCount = 0
            // SQLite puts nulls first ascending on its own.
            let sql = query.sql.replacingOccurrences(of: " NULLS FIRST", with: "")
            let arguments = StatementArguments(query.arguments.map(Self.databaseValue))
            let (ours, hand) = try Stopwatch.pairedNanosecondsPerIteration(runs: 3, iterations: 5, {
                ourCount = try store.records(ofType: query.recordType, matching: predicate, sorts: query.sorts).count
            }, {
                handCount = try queue.read { db in try Self.decodedRows(db, sql: sql, arguments: arguments) }
            })
            report.figure(query.name, measured: ours / 1e6, baseline: hand / 1e6, unit: "ms", target: .ratioAtMost(1.25))
            report.note(ourCount == handCount ? "\(ourCount) records" : "MISMATCH: store returned \(ourCount) records, hand-written SQL \(handCount)")
            let plan = try await store.explain(ofType: query.recordType, matching: predicate, sorts: query.sorts)
            report.note("plan: " + plan.queryPlanDetails.joined(separator: "; "))
        }
        #if PostgreSQL
        try await measurePostgres(report: report, from: store, prefix: prefix)
        #else
        report.note("PostgreSQL figures: built without the PostgreSQL trait")
        #endif
    }

    /// A bound value as GRDB binds it.
    static func databaseValue(_ value: SQLValue) -> (any DatabaseValueConvertible)? {
        switch value {
        case .text(let text): text
        case .integer(let integer): integer
        case .real(let real): real
        case .blob(let data): data
        default: nil
        }
    }
}

#if PostgreSQL
extension RelationshipsSection {
    /// Copies the graph into a PostgreSQL store of a schema of its own and measures every
    /// walked query there beside the same SQL by hand through PostgresNIO (median of 15 runs
    /// after 5 warm-ups on each side, as ``PostgresSection`` measures).
    func measurePostgres(report: BenchmarkReport, from store: Store, prefix: String) async throws {
        guard let server = ProcessInfo.processInfo.environment["QUERY_BENCH_POSTGRES_URL"], !server.isEmpty else {
            report.note("PostgreSQL figures skipped: set QUERY_BENCH_POSTGRES_URL (.ci/postgres start DIR PORT prints one)")
            return
        }
        let schema = "bench_walk_" + UUID().uuidString.prefix(8).lowercased()
        StoreRegistry.shared.register(.postgres)
        let postgres = try await Store.open(url: PostgresSection.url(server, schema: schema))
        let hand = try HandClient(url: server, schema: schema)
        defer { hand.close() }
        do {
            try await postgres.define(try await store.schema())
            for recordType in ["Department", "Employee"] {
                let records = try await store.records(ofType: recordType, matching: .truePredicate)
                for start in stride(from: 0, to: records.count, by: 5_000) {
                    _ = try await postgres.save(Array(records[start..<min(start + 5_000, records.count)]), policy: .allKeys)
                }
            }
            try await postgres.optimize()
            report.note("PostgreSQL: the same graph in schema \(schema) of \(PostgresSection.redacted(server))")
            for query in Self.walkedQueries(prefix: prefix) {
                try await measure(report, postgres: postgres, hand: hand, query: query)
            }
        } catch {
            try? await PostgresSection.drop([schema], hand)
            throw error
        }
        try await PostgresSection.drop([schema], hand)
    }

    private func measure(_ report: BenchmarkReport, postgres: Store, hand: HandClient, query: WalkedQuery) async throws {
        let predicate = try FormatPredicate(format: query.format)
        let sql = Self.numbered(query.sql)
        var ours: [Double] = []
        var theirs: [Double] = []
        var counts = (0, 0)
        for _ in 0..<5 {
            _ = try await postgres.records(ofType: query.recordType, matching: predicate, sorts: query.sorts)
            _ = try await hand.walkedRows(sql, query.arguments)
        }
        for _ in 0..<15 {
            let start = DispatchTime.now().uptimeNanoseconds
            counts.0 = try await postgres.records(ofType: query.recordType, matching: predicate, sorts: query.sorts).count
            ours.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            let handStart = DispatchTime.now().uptimeNanoseconds
            counts.1 = try await hand.walkedRows(sql, query.arguments)
            theirs.append(Double(DispatchTime.now().uptimeNanoseconds - handStart) / 1e6)
        }
        report.figure("PostgreSQL " + query.name, measured: PostgresSection.median(ours), baseline: PostgresSection.median(theirs), unit: "ms",
                      target: .ratioAtMost(1.25),
                      baselineName: "the same query by hand through PostgresNIO (\(counts.1) rows; the store returned \(counts.0) records)")
        let plan = try await postgres.explain(ofType: query.recordType, matching: predicate, sorts: query.sorts)
        report.note("plan: " + plan.queryPlanDetails.joined(separator: "; "))
    }

    /// `?` placeholders numbered as PostgreSQL's `$1, $2, ...` (the SQL here has no `?` in literals).
    static func numbered(_ sql: String) -> String {
        var number = 0
        var result = ""
        for character in sql {
            if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension HandClient {
    /// Runs a query and decodes every column of its rows into values (integers, doubles, text),
    /// as the engine decodes a record's row; returns the count.
    func walkedRows(_ sql: String, _ arguments: [SQLValue]) async throws -> Int {
        let rows = try await client.query(Self.query(sql, arguments), logger: logger)
        var count = 0
        for try await row in rows {
            var fields: [String: Value] = [:]
            for cell in row where cell.bytes != nil {
                switch cell.dataType {
                case .int8: fields[cell.columnName] = .int(try cell.decode(Int64.self))
                case .float8: fields[cell.columnName] = .double(try cell.decode(Double.self))
                case .text, .varchar: fields[cell.columnName] = .string(try cell.decode(String.self))
                default: continue
                }
            }
            if !fields.isEmpty { count += 1 }
        }
        return count
    }
}
#endif

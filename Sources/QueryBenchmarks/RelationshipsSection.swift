import Foundation
import GRDB
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Key paths through relationships on SQLite (issue #30): a generated graph of 100,000 records
/// (2,000 departments, 98,000 employees, each referencing a department), and three queries that
/// walk it, each beside the same query written by hand in SQL on the same tables, as a person
/// would write it (a join, `EXISTS`, a correlated count), its rows decoded as the engine decodes
/// them. Target: within 1.25x.
struct RelationshipsSection: BenchmarkSection {
    let name = "relationships"
    let title = "Relationships: walks on a graph of 100,000 records (SQLite)"

    static let departments = 2_000
    static let employees = 98_000

    /// The queries: the record type, the predicate, the hand-written SQL and its arguments.
    static func queries(prefix: String) -> [(name: String, recordType: String, format: String, sql: String, arguments: StatementArguments)] {
        let zone = StoreSection.defaultZoneKey
        return [
            ("to-one: department.name == \"Department 42\"", "Employee", "department.name == 'Department 42'",
             #"SELECT e.* FROM "Employee" AS e JOIN "Department" AS d ON e."department" = ? || d."$recordName" AND d."$zone" = e."$zone" "#
                + #"WHERE e."$zone" = ? AND d."name" = ? ORDER BY e."$recordName""#,
             [prefix, zone, "Department 42"]),
            ("ANY over a to-many: ANY employees.salary > 149900", "Department", "ANY employees.salary > 149900",
             #"SELECT d.* FROM "Department" AS d WHERE d."$zone" = ? AND EXISTS (SELECT 1 FROM "Employee" AS e "#
                + #"WHERE e."$zone" = d."$zone" AND e."department" = ? || d."$recordName" AND e."salary" > ?) ORDER BY d."$recordName""#,
             [zone, prefix, 149_900]),
            ("@count filter: employees.@count > 60", "Department", "employees.@count > 60",
             #"SELECT d.* FROM "Department" AS d WHERE d."$zone" = ? AND (SELECT count(*) FROM "Employee" AS e "#
                + #"WHERE e."$zone" = d."$zone" AND e."department" = ? || d."$recordName") > ? ORDER BY d."$recordName""#,
             [zone, prefix, 60]),
        ]
    }

    func run(report: BenchmarkReport) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-relationships-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if ProcessInfo.processInfo.environment["QUERY_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(at: folder) } }
        let path = folder.appendingPathComponent("company.sqlite").path
        report.note("store: \(path)")
        let store = try Store.open(path: path)
        try await store.define([
            RecordTypeSchema(
                name: "Department", fields: [FieldSchema(name: "name", type: .string)],
                relationships: [.toMany("employees", destination: "Employee", inverse: "department")]),
            RecordTypeSchema(
                name: "Employee", fields: [FieldSchema(name: "name", type: .string), FieldSchema(name: "salary", type: .int64)],
                relationships: [.toOne("department", destination: "Department")]),
        ])
        try await store.save((0..<Self.departments).map { index in
            Record(recordType: "Department", recordID: RecordID(recordName: "d\(index)"), fields: ["name": .string("Department \(index)")])
        })
        var random = SystemRandomNumberGenerator()
        var start = 0
        while start < Self.employees {
            let batch = (start..<min(start + 5_000, Self.employees)).map { index in
                Record(recordType: "Employee", recordID: RecordID(recordName: "e\(index)"), fields: [
                    "name": .string("Employee \(index)"), "salary": .int(Int64.random(in: 30_000...150_000, using: &random)),
                    "department": .reference(Reference(recordName: "d\(Int.random(in: 0..<Self.departments, using: &random))")),
                ])
            }
            try await store.save(batch)
            start += 5_000
        }
        try await store.optimize()
        let queue = try DatabaseQueue(path: path)
        let prefix = StoredValueEncoding.encodeReference(Reference(recordName: "", zoneName: ZoneID.default.zoneName))
        for query in Self.queries(prefix: prefix) {
            let predicate = try FormatPredicate(format: query.format)
            var ourCount = 0
            var handCount = 0
            let (ours, hand) = try Stopwatch.pairedNanosecondsPerIteration(runs: 3, iterations: 5, {
                ourCount = try store.records(ofType: query.recordType, matching: predicate).count
            }, {
                handCount = try queue.read { db in try Self.decodedRows(db, sql: query.sql, arguments: query.arguments) }
            })
            report.figure(query.name, measured: ours / 1e6, baseline: hand / 1e6, unit: "ms", target: .ratioAtMost(1.25))
            report.note(ourCount == handCount ? "\(ourCount) records" : "MISMATCH: store returned \(ourCount) records, hand-written SQL \(handCount)")
            let plan = try await store.explain(ofType: query.recordType, matching: predicate)
            report.note("plan: " + plan.queryPlanDetails.joined(separator: "; "))
        }
        try await measureWalkedForms(report: report, store: store, queue: queue, prefix: prefix)
        try measurePrefetching(store: store, report: report)
    }

    /// A fetch of 2,000 employees with their departments prefetched (one read of the
    /// departments), beside the same fetch whose departments are then read one by one, as Core
    /// Data fires faults without prefetching. Target: prefetching at most half the time.
    private func measurePrefetching(store: Store, report: BenchmarkReport) throws {
        var request = FetchRequest(entityName: "Employee", predicate: try FormatPredicate(format: "salary > 100000"), sortDescriptors: [Sort("salary")])
        request.fetchLimit = 2_000
        var prefetched = request
        prefetched.relationshipKeyPathsForPrefetching = ["department"]
        var withPrefetching = 0
        let ours = try Stopwatch.nanosecondsPerIteration(runs: 3, iterations: 3) {
            let fetched = try store.fetchPrefetched(prefetched)
            withPrefetching = fetched.records.filter { fetched.related.record(through: "department", of: $0) != nil }.count
        }
        var oneByOne = 0
        let faults = try Stopwatch.nanosecondsPerIteration(runs: 3, iterations: 3) {
            oneByOne = 0
            for employee in try store.fetch(request).records {
                guard case .reference(let department)? = employee["department"] else { continue }
                if try store.record(for: RecordID(recordName: department.recordName, zoneID: ZoneID(zoneName: department.zoneName))) != nil { oneByOne += 1 }
            }
        }
        report.figure("prefetching: 2,000 employees with their departments, vs one read per employee",
                      measured: ours / 1e6, baseline: faults / 1e6, unit: "ms", target: .ratioAtMost(0.5))
        report.note(withPrefetching == oneByOne ? "\(withPrefetching) departments reached" : "MISMATCH: prefetching reached \(withPrefetching), one by one \(oneByOne)")
    }

    /// Reads the rows and decodes each column into a value, as the engine decodes a record's row.
    static func decodedRows(_ db: GRDB.Database, sql: String, arguments: StatementArguments) throws -> Int {
        var count = 0
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            var fields: [String: Value] = [:]
            for (column, databaseValue) in row {
                switch databaseValue.storage {
                case .null: continue
                case .int64(let integer): fields[column] = .int(integer)
                case .double(let double): fields[column] = .double(double)
                case .string(let text): fields[column] = .string(text)
                case .blob(let data): fields[column] = .bytes(data)
                }
            }
            if !fields.isEmpty { count += 1 }
        }
        return count
    }
}

import Foundation
import PredicateLanguage
import RecordStore

/// Core Data entity inheritance (#51): a fetch of a parent entity whose records are in three
/// sub-entities (`Person`, abstract, over `Employee`, `Manager` below it, and `Contractor`),
/// against the same fetch on one record type holding the same records (target: at most 1.25x),
/// on SQLite and on the memory engine, both stores in the same run.
///
/// The store keeps a table per record type and runs a query on `Person` over each concrete
/// type (`HierarchyQuery`): on SQLite as one `UNION ALL` statement ordered and limited as the
/// fetch asks (`HierarchyUnion`), in memory in one pass over the zone; the figures measure what
/// that costs.
///
/// First release run (2-core machine, November 2026), one query per concrete type merged in
/// Swift: SQLite 1.69x for a page of 100 sorted by an indexed field (three statements for one),
/// 0.96x for a page of 50 after a residual filter, 1.24x to 1.42x for every match (read type by
/// type); memory 1.22x to 3.35x (each branch scanned the zone). With the union and the one
/// pass (same machine, four runs, two of them beside another build): SQLite 1.25x to 1.43x for
/// the page of 100 (one statement, but three planned branches and SQLite's merge of three
/// sorted reads), 1.15x to 1.48x for every match by name, 1.26x to 1.38x for every record,
/// 0.93x to 1.11x for the page of 50; memory 0.82x to 1.18x.
struct InheritanceSection: BenchmarkSection {
    let name = "inheritance"
    let title = "Entity inheritance: a parent entity over three sub-entities vs one record type (30,000 records)"

    static let records = 30_000
    static let subEntities = ["Employee", "Manager", "Contractor"]

    /// The fetches measured: a page, and every match sorted.
    static let fetches: [(name: String, format: String, sorts: [Sort], limit: Int)] = [
        ("page of 100: age >= 40 by age", "age >= 40", [Sort("age"), Sort("name")], 100),
        ("all matches: age >= 40 by name", "age >= 40", [Sort("name")], 0),
        ("all records, no sort", "TRUEPREDICATE", [], 0),
        ("page of 50: name BEGINSWITH 'Name 1' by score", "name BEGINSWITH 'Name 1'", [Sort("score", ascending: false)], 50),
    ]

    func run(report: BenchmarkReport) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-inheritance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try Store.open(path: folder.appendingPathComponent("staff.sqlite").path)
        let memory = try Store.open(StoreLocation("memory:"))
        for (engine, store) in [("sqlite", sqlite), ("memory", memory)] {
            try await Self.fill(store)
            for fetch in Self.fetches {
                let predicate = try FormatPredicate(format: fetch.format)
                var parent = FetchRequest(entityName: "Person", predicate: predicate, sortDescriptors: fetch.sorts)
                parent.fetchLimit = fetch.limit
                var flat = parent
                flat.entityName = "Staff"
                var counts = (parent: 0, flat: 0)
                let (hierarchy, single) = try Stopwatch.pairedNanosecondsPerIteration(runs: 5, iterations: fetch.limit > 0 ? 20 : 2, {
                    counts.parent = try store.fetch(parent).count
                }, {
                    counts.flat = try store.fetch(flat).count
                })
                guard counts.parent == counts.flat else {
                    report.note("\(engine) \(fetch.name): \(counts.parent) records over the hierarchy but \(counts.flat) in one type")
                    continue
                }
                report.figure("\(engine) \(fetch.name)", measured: hierarchy / 1e6, baseline: single / 1e6, unit: "ms", target: .ratioAtMost(1.25),
                              baselineName: "the same fetch on one record type holding the same \(Self.records) records (\(counts.flat) returned)")
            }
        }
    }

    /// The hierarchy and the one record type, and the same records in each: a third in each sub-entity.
    static func fill(_ store: Store) async throws {
        let common = [
            FieldSchema(name: "name", type: .string), FieldSchema(name: "age", type: .int64), FieldSchema(name: "score", type: .double),
        ]
        let salary = FieldSchema(name: "salary", type: .double, isQueryable: false, isSortable: false)
        let level = FieldSchema(name: "level", type: .int64, isQueryable: false, isSortable: false)
        let agency = FieldSchema(name: "agency", type: .string, isQueryable: false, isSortable: false)
        try await store.define([
            RecordTypeSchema(name: "Person", fields: common, isAbstract: true),
            RecordTypeSchema(name: "Employee", fields: common + [salary], parentType: "Person"),
            RecordTypeSchema(name: "Manager", fields: common + [salary, level], parentType: "Employee"),
            RecordTypeSchema(name: "Contractor", fields: common + [agency], parentType: "Person"),
            RecordTypeSchema(name: "Staff", fields: common + [salary, level, agency]),
        ])
        var random = SystemRandomNumberGenerator()
        var start = 0
        while start < records {
            var typed: [Record] = []
            var flat: [Record] = []
            for index in start..<min(start + 5_000, records) {
                let type = subEntities[index % subEntities.count]
                var fields: [String: Value] = [
                    "name": .string("Name \(Int.random(in: 0..<records, using: &random))"), "age": .int(Int64.random(in: 18...70, using: &random)),
                    "score": .double(Double.random(in: 0..<1, using: &random)),
                ]
                if type != "Contractor" { fields["salary"] = .double(Double(Int.random(in: 30...150, using: &random)) * 1000) }
                if type == "Manager" { fields["level"] = .int(Int64.random(in: 1...4, using: &random)) }
                if type == "Contractor" { fields["agency"] = "Acme" }
                typed.append(Record(recordType: type, recordID: RecordID(recordName: "p\(index)"), fields: fields))
                flat.append(Record(recordType: "Staff", recordID: RecordID(recordName: "s\(index)"), fields: fields))
            }
            _ = try await store.save(typed)
            _ = try await store.save(flat)
            start += 5_000
        }
        try await store.optimize()
    }
}

import Foundation
import GRDB
import PredicateLanguage
import RecordStore

/// `ANY` tests over a list on SQLite, against hand-written SQL on the same tables.
extension StoreSection {
    /// The `ANY` tests over `alternatenames` timed on both engines: the predicate, and the
    /// bounds hand-written SQL gives the list table's `value`, `value$c` or `value$cd` column
    /// (an upper bound of nil is an equality).
    static let listQueries: [(name: String, format: String, argument: String, column: String, lower: String, upper: String?)] = [
        ("ANY alternatenames BEGINSWITH \"K\"", "ANY alternatenames BEGINSWITH %@", "K", "value", "K", "L"),
        ("ANY alternatenames BEGINSWITH[c] \"ka\"", "ANY alternatenames BEGINSWITH[c] %@", "ka", "value$c", "ka", "kb"),
        ("ANY alternatenames == \"Paris\"", "ANY alternatenames == %@", "Paris", "value", "Paris", nil),
    ]

    /// `ANY alternatenames BEGINSWITH "K"` counted on the store imported with the defaults, where
    /// the list keeps no members in the list table (as a development store keeps a list nobody
    /// declared queryable): the store reads each record's list from its JSON column, against
    /// hand-written SQL doing the same with SQLite's `json_each`. Target (#49): within 3x.
    func measureUndeclaredListScan(_ report: BenchmarkReport, storePath: String) async throws {
        let store = try Store.open(path: storePath)
        let queue = try DatabaseQueue(path: storePath)
        let predicate = try FormatPredicate(format: "ANY alternatenames BEGINSWITH %@", "K")
        let handSQL = #"SELECT count(*) FROM "City" WHERE "$zone" = ? AND EXISTS (SELECT 1 FROM json_each("alternatenames") WHERE value >= 'K' AND value < 'L')"#
        var ours = 0
        var hand = 0
        let (measured, baseline) = try Stopwatch.pairedNanosecondsPerIteration(runs: 3, iterations: 1, {
            ours = try store.count(ofType: "City", matching: predicate)
        }, {
            hand = try queue.read { db in try Int.fetchOne(db, sql: handSQL, arguments: [StoreSection.defaultZoneKey]) ?? 0 }
        })
        report.figure("ANY alternatenames BEGINSWITH \"K\", a list without its members' table: count", measured: measured / 1e6, baseline: baseline / 1e6,
                      unit: "ms", target: .ratioAtMost(3), baselineName: "hand-written SQL: json_each over the list's JSON column, value >= 'K' AND value < 'L'")
        report.note(ours == hand ? "\(ours) records" : "MISMATCH: the store counted \(ours) records, hand-written SQL \(hand)")
    }

    /// Times each of ``listQueries`` on the store imported with `--indexes all` (where
    /// `alternatenames` is `QUERYABLE`, so its members and their indexes are in the list table;
    /// the defaults keep no members) against hand-written SQL that finds the records through the
    /// list table's `(field, value, record)` indexes. Target: within 1.25x.
    func measureListQueries(_ report: BenchmarkReport, storePath: String) async throws {
        let store = try Store.open(path: storePath)
        let queue = try DatabaseQueue(path: storePath)
        report.note("ANY over a list: on the store imported with --indexes all (alternatenames QUERYABLE)")
        for query in Self.listQueries {
            let test = query.upper == nil ? #""\#(query.column)" = ?"# : #""\#(query.column)" >= ? AND "\#(query.column)" < ?"#
            let arguments: StatementArguments = query.upper.map { [StoreSection.defaultZoneKey, query.lower, $0] } ?? [StoreSection.defaultZoneKey, query.lower]
            try await measureQuery(
                report, store: store, queue: queue, name: query.name,
                predicate: FormatPredicate(format: query.format, query.argument), sorts: [], limit: nil,
                handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND rowid IN (SELECT record FROM "City$list" WHERE field = 'alternatenames' AND \#(test)) ORDER BY "$recordName""#,
                handArguments: arguments, runs: 3, iterations: 1)
        }
    }
}

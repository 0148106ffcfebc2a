import Foundation
import GRDB
import PredicateLanguage
import RecordStore

/// Batch requests on `cities1000` (#51): a batch update and a batch delete of the 99,991 cities
/// with fewer than 4,812 people (`Store.updateRecords(matching:set:)`,
/// `Store.deleteRecords(matching:)`), against the same `UPDATE … WHERE` and `DELETE … WHERE`
/// written by hand through GRDB on a copy of the same file (target: at least 0.5x their rate).
///
/// The store's side does what the hand-written statement does not: it keeps the change history
/// (a tombstone per deleted record, a position per updated one), checks each record's change tag
/// and the schema's rules, keeps the list and full-text tables, and tells live queries.
struct BatchSection: BenchmarkSection {
    let name = "batch"
    let title = "Batch requests on cities1000 (99,991 of 170,391 records)"

    static let predicate = "population < 4812"
    static let handWhere = #""$zone" = ? AND "population" < 4812"#

    func run(report: BenchmarkReport) async throws {
        let source = try Cities1000Database.path()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storePath = directory.appendingPathComponent("store.sqlite").path
        let handPath = directory.appendingPathComponent("hand.sqlite").path
        for path in [storePath, handPath] { try Self.copy(source, to: path) }

        let store = try Store.open(path: storePath)
        let hand = try DatabaseQueue(path: handPath)
        let request = FetchRequest(entityName: "City", predicate: try FormatPredicate(format: Self.predicate))
        let zone = StoreSection.defaultZoneKey

        // What reading the matches alone costs (the general way reads them, then saves them; the
        // update here runs over the rows without reading them, `SetBasedUpdate`; the delete reads).
        let fetchOnly = try await Self.seconds { _ = try await store.fetch(request) }
        let storeUpdate = try await Self.seconds { _ = try await store.updateRecords(matching: request, set: ["timezone": "Etc/UTC"]) }
        var updatedByHand = 0
        let handUpdate = try await Self.seconds {
            try hand.write { db in
                try db.execute(sql: #"UPDATE "City" SET "timezone" = 'Etc/UTC' WHERE "# + Self.handWhere, arguments: [zone])
                updatedByHand = db.changesCount
            }
        }
        let count = try await store.count(ofType: "City", matching: FormatPredicate(format: "timezone == 'Etc/UTC'"))
        report.figure("batch update rate vs UPDATE … WHERE by hand", measured: Double(count) / storeUpdate,
                      baseline: Double(updatedByHand) / handUpdate, unit: "rec/s", target: .ratioAtLeast(0.5))

        let storeDelete = try await Self.seconds { _ = try await store.deleteRecords(matching: request) }
        var deletedByHand = 0
        let handDelete = try await Self.seconds {
            try hand.write { db in
                try db.execute(sql: #"DELETE FROM "City" WHERE "# + Self.handWhere, arguments: [zone])
                deletedByHand = db.changesCount
            }
        }
        report.figure("batch delete rate vs DELETE … WHERE by hand", measured: Double(count) / storeDelete,
                      baseline: Double(deletedByHand) / handDelete, unit: "rec/s", target: .ratioAtLeast(0.5))
        report.note("\(count) records updated then deleted by each side; the store's side in \(String(format: "%.2f", storeUpdate)) s and \(String(format: "%.2f", storeDelete)) s, while a fetch of the matches takes \(String(format: "%.2f", fetchOnly)) s (the delete reads them; the update runs over the rows)")
    }

    /// A consistent copy of a SQLite file (its write-ahead log included), through SQLite's backup.
    static func copy(_ source: String, to destination: String) throws {
        let from = try DatabaseQueue(path: source)
        let to = try DatabaseQueue(path: destination)
        try from.backup(to: to)
    }

    /// The seconds a body takes, once (each side changes its copy of the data, so it runs once).
    static func seconds(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

import Foundation
import PredicateLanguage
import RecordStore

/// The change history (issue #31), side by side in one run:
///
/// - the cost of `changes(since:)` over 100 changes (90 updates and 10 deletions, each its own
///   commit, made after taking the token) in a zone of 10,000 records and in one of 1,000,000;
///   target: flat, the large zone at most 1.5x the small one (the history is read by position,
///   so its cost follows the changes, not the zone);
/// - a full initial sync of cities1000 (170,391 records) through `changes` pages of 200 until
///   `moreComing` is false, beside `records(matching:)` keyset paging with `resultsLimit` 200
///   over the same records.
///
/// On SQLite, and on PostgreSQL too when `QUERY_BENCH_POSTGRES_URL` is set (schemas of the run's
/// own, dropped at the end). The SQLite zones are generated records (`Item`: a name and one
/// integer) imported through ``RecordImporter``, in a folder kept for the next run when
/// `QUERY_BENCH_KEEP` is set (otherwise removed at the end); `QUERY_BENCH_CITIES_DB` reuses a
/// cities1000 store (``Cities1000Database``).
struct SyncSection: BenchmarkSection {
    let name = "sync"
    let title = "Sync: changes since a token (zones of 10,000 and 1,000,000 records) and a full initial sync of cities1000"

    static let smallZone = 10_000
    static let largeZone = 1_000_000
    /// Updates and deletions made after taking the token (100 changes in all).
    static let updates = 90
    static let deletions = 10
    /// The page size of both sides of the full sync (CloudKit's `resultsLimit` default).
    static let pageSize = 200

    func run(report: BenchmarkReport) async throws {
        let keep = ProcessInfo.processInfo.environment["QUERY_BENCH_KEEP"] != nil
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-sync")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        var stores: [Store] = []
        for count in [Self.smallZone, Self.largeZone] {
            stores.append(try await Self.itemStore(count: count, in: folder, report: report))
        }
        try await Self.measureChanges(report, small: stores[0], large: stores[1], engine: "SQLite")
        let cities = try Store.open(path: try Cities1000Database.path())
        try await Self.measureFullSync(report, store: cities, engine: "SQLite")
        report.note("stores: \(folder.path)" + (keep ? " (kept: QUERY_BENCH_KEEP)" : " (removed; QUERY_BENCH_KEEP keeps them for the next run)"))
        #if PostgreSQL
        try await Self.runOnPostgres(report)
        #else
        report.note("PostgreSQL: not in this build (the PostgreSQL trait)")
        #endif
    }

    /// The name of generated record `index`, padded so that names sort as numbers.
    static func itemName(_ index: Int) -> String {
        let digits = String(index)
        return "i" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// A SQLite store whose default zone holds `count` generated `Item` records: reused from the
    /// folder when an earlier run left it complete, otherwise generated and imported.
    static func itemStore(count: Int, in folder: URL, report: BenchmarkReport) async throws -> Store {
        let path = folder.appendingPathComponent("items-\(count).sqlite").path
        let complete = folder.appendingPathComponent("items-\(count).complete")
        if FileManager.default.fileExists(atPath: complete.path) {
            report.note("reusing \(path)")
            return try Store.open(path: path)
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try Store.open(path: path)
        let seconds = try await importItems(count: count, into: store, folder: folder)
        _ = FileManager.default.createFile(atPath: complete.path, contents: Data())
        report.note(String(format: "imported %d Item records in %.1f s", count, seconds))
        return store
    }

    /// Writes `count` records as JSON lines (`{"id": "i0000042", "n": 42}`) and imports them
    /// through the bulk import path; returns the seconds the import took.
    static func importItems(count: Int, into store: Store, folder: URL) async throws -> Double {
        let file = folder.appendingPathComponent("items-\(count).jsonl")
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let handle = FileHandle(forWritingAtPath: file.path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        var buffer = Data()
        for index in 0..<count {
            buffer.append(contentsOf: "{\"id\":\"\(itemName(index))\",\"n\":\(index)}\n".utf8)
            if buffer.count >= 1 << 20 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer)
        try handle.close()
        defer { try? FileManager.default.removeItem(at: file) }
        var importer = RecordImporter(recordType: "Item")
        importer.idField = "id"
        let started = DispatchTime.now().uptimeNanoseconds
        _ = try await importer.importFile(at: file.path, into: store)
        return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    }

    /// Takes a token in each store, makes 100 changes (each its own commit) spread over its
    /// zone, times `changes(since:)` in both, and restores the deleted records (so that a kept
    /// store holds the same records next run).
    static func measureChanges(_ report: BenchmarkReport, small: Store, large: Store, engine: String) async throws {
        var times: [Double] = []
        for (store, count) in [(small, smallZone), (large, largeZone)] {
            let token = try await store.currentChangeToken(for: .default)
            let step = count / (updates + deletions)
            let touched = (0..<(updates + deletions)).map { RecordID(recordName: itemName($0 * step + 1)) }
            for (offset, id) in touched.prefix(updates).enumerated() {
                try await store.save([Record(recordType: "Item", recordID: id, fields: ["n": .int(-Int64(offset))])], policy: .allKeys)
            }
            let deleted = Array(touched.suffix(deletions))
            for id in deleted { try await store.delete([id]) }
            var changes: ZoneChanges?
            times.append(try await Stopwatch.awaitedNanosecondsPerIteration(runs: 5, iterations: 50) {
                changes = try await store.changes(in: .default, since: token, limit: pageSize)
            })
            let found = (changes?.changedRecords.count ?? 0, changes?.deletedRecords.count ?? 0)
            if found != (updates, deletions) || changes?.moreComing != false {
                report.note("MISMATCH in the zone of \(count): \(found.0) changed and \(found.1) deleted, expected \(updates) and \(deletions)")
            }
            try await store.save(deleted.map { id in
                Record(recordType: "Item", recordID: id, fields: ["n": .int(Int64(id.recordName.dropFirst()) ?? 0)])
            }, policy: .allKeys)
        }
        report.figure("\(engine): changes(since:), 100 changes, 1,000,000 vs 10,000", measured: times[1] / 1e3, baseline: times[0] / 1e3,
                      unit: "µs", target: .ratioAtMost(1.5),
                      baselineName: "the same call (90 updates, 10 deletions since the token) in a zone of 10,000 records")
    }

    /// Reads every record of the store's default zone through `changes` pages and through
    /// keyset query pages, both of ``pageSize``; reports the total times side by side.
    static func measureFullSync(_ report: BenchmarkReport, store: Store, engine: String) async throws {
        var synced = 0
        var paged = 0
        var syncTimes: [Double] = []
        var pageTimes: [Double] = []
        let query = try RecordQuery(recordType: "City", predicate: .truePredicate)
        // Alternate the two sides, so that both see the same cache; keep each side's best run.
        for _ in 0..<2 {
            syncTimes.append(try await Stopwatch.awaitedNanosecondsPerIteration(runs: 1, iterations: 1) {
                synced = try await fullSync(store)
            })
            pageTimes.append(try await Stopwatch.awaitedNanosecondsPerIteration(runs: 1, iterations: 1) {
                var batch = try await store.records(matching: query, resultsLimit: pageSize)
                paged = batch.records.count
                while let cursor = batch.cursor {
                    batch = try await store.records(continuingMatchFrom: cursor, resultsLimit: pageSize)
                    paged += batch.records.count
                }
            })
        }
        report.figure("\(engine): full sync of cities1000, pages of 200", measured: (syncTimes.min() ?? 0) / 1e9,
                      baseline: (pageTimes.min() ?? 0) / 1e9, unit: "s", target: .none,
                      baselineName: "records(matching: City TRUEPREDICATE) keyset pages of 200 (records/query paging)")
        report.note("records: \(synced) through changes, \(paged) through query pages" + (synced == paged ? "" : " (MISMATCH)"))
    }

    /// Every record of the default zone through `changes` from no token until `moreComing` is
    /// false; returns how many arrived.
    static func fullSync(_ store: Store) async throws -> Int {
        var changes = try await store.changes(in: .default, limit: pageSize)
        var count = changes.changedRecords.count
        while changes.moreComing {
            changes = try await store.changes(in: .default, since: changes.token, limit: pageSize)
            count += changes.changedRecords.count
        }
        return count
    }
}

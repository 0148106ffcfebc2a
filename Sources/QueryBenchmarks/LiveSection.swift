import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// Live queries (`Store.observe`) on the SQLite engine: the latency from a commit to the change
/// set delivered to 1 and to 100 observers (p50, p99, beside the commit's own time); the import
/// rate of `cities15000` while 100 observers watch the big cities, against no observer (target:
/// at least 0.8x); and the cost of one changed record for an observer of 100,000 results against
/// one of 100 (target: at most 2x, the work is incremental, not a new query).
struct LiveSection: BenchmarkSection {
    let name = "live"
    let title = "Live queries on SQLite"

    func run(report: BenchmarkReport) async throws {
        try await latency(report: report)
        try await importWhileObserved(report: report)
        try await costOfOneChange(report: report)
    }

    // MARK: Latency

    /// Commits of one new first record each, observed by a window of 50; the commit's own time
    /// (the save call) is the baseline.
    private func latency(report: BenchmarkReport) async throws {
        let store = try Store.open(path: Datasets.temporaryDatabase("live-latency"))
        _ = try await store.save((0..<1_000).map { Self.item("seed\($0)", value: $0) })
        let query = try RecordQuery(recordType: "Item", predicate: FormatPredicate(format: "value >= 0"), sorts: [Sort("value", ascending: false)])
        var next = 1_000
        for observers in [1, 100] {
            let pool = ObserverPool(store: store, query: query, limit: 50, count: observers)
            try await pool.started()
            var commits: [Double] = []
            var delivered: [Double] = []
            for round in 0..<(Self.latencyRounds + 20) {
                let name = "n\(next)"
                let start = ContinuousClock.now
                _ = try await store.save([Self.item(name, value: next)])
                let saved = ContinuousClock.now
                let last = try await pool.waitUntilEveryObserverShows(first: name)
                next += 1
                guard round >= 20 else { continue }  // warm-up
                commits.append(Self.milliseconds(saved - start))
                delivered.append(Self.milliseconds(last - start))
            }
            pool.stop()
            let label = observers == 1 ? "1 observer" : "\(observers) observers (the last)"
            report.figure("commit to change set, \(label), p50", measured: Self.percentile(delivered, 0.5),
                          baseline: Self.percentile(commits, 0.5), unit: "ms", target: .none,
                          baselineName: "the commit alone (a save of one record), p50")
            report.figure("commit to change set, \(label), p99", measured: Self.percentile(delivered, 0.99),
                          baseline: Self.percentile(commits, 0.99), unit: "ms", target: .none,
                          baselineName: "the commit alone, p99")
        }
    }

    static let latencyRounds = 200

    // MARK: Import

    /// `cities15000` imported by the synchronous importer (as `query import` does), on a thread
    /// of its own, with and without 100 observers of the big cities (a window of 20).
    private func importWhileObserved(report: BenchmarkReport) async throws {
        let path = try Datasets.path("cities15000.jsonl.gz")
        let query = try RecordQuery(
            recordType: "City", predicate: FormatPredicate(format: "population > 1000000"), sorts: [Sort("population", ascending: false)])
        var rates: [Int: Double] = [:]
        var count = 0
        for observers in [0, 100, 0, 100] {
            let store = try Store.open(path: Datasets.temporaryDatabase("live-import-\(observers)"))
            let pool = ObserverPool(store: store, query: query, limit: 20, count: observers)
            try await pool.started()
            let (seconds, imported) = try await Self.importOnThread(path: path, store: store)
            count = imported
            rates[observers] = max(rates[observers] ?? 0, Double(imported) / seconds / 1000)
            // The observers catch up with the last commit.
            let largest = try await store.records(ofType: "City", matching: query.predicate, sorts: query.sorts, limit: 1)
            _ = try await pool.waitUntilEveryObserverShows(first: largest.first?.recordID.recordName ?? "")
            pool.stop()
        }
        report.figure("import of cities15000 with 100 observers", measured: rates[100] ?? 0, baseline: rates[0] ?? 0,
                      unit: "k rec/s", target: .ratioAtLeast(0.8), baselineName: "the same import with no observer (\(count) records, best of 2)")
    }

    /// Imports a file on a thread of its own; the seconds it took and the records imported.
    private static func importOnThread(path: String, store: Store) async throws -> (Double, Int) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                // The defaults make population SORTABLE, what the observed query seeks.
                var importer = RecordImporter(recordType: "City")
                importer.idField = "geonameid"
                importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
                let start = ContinuousClock.now
                do {
                    let summary = try importer.importFile(at: path, into: store)
                    continuation.resume(returning: (seconds(ContinuousClock.now - start), summary.recordCount))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    // MARK: Cost of one change

    /// One record updated in place, seen by an observer of 100,000 results or of 100 (each
    /// alone): the latency from the commit, median of 200.
    private func costOfOneChange(report: BenchmarkReport) async throws {
        let store = try Store.open(path: Datasets.temporaryDatabase("live-cost"))
        var rows: [Record] = []
        for index in 0..<100_000 {
            rows.append(Self.item("r\(index)", value: index))
            if rows.count == 10_000 {
                _ = try await store.save(rows)
                rows = []
            }
        }
        let large = try RecordQuery(recordType: "Item", predicate: FormatPredicate(format: "value >= 0"), sorts: [Sort("value")])
        let small = try RecordQuery(recordType: "Item", predicate: FormatPredicate(format: "value < 100"), sorts: [Sort("value")])
        var medians: [Int: Double] = [:]
        for (size, query) in [(100_000, large), (100, small)] {
            let pool = ObserverPool(store: store, query: query, limit: nil, count: 1)
            try await pool.started()
            var latencies: [Double] = []
            for round in 0..<220 {
                var record = try await store.record(for: RecordID(recordName: "r50")) ?? Self.item("r50", value: 50)
                record["note"] = .string("change \(size)-\(round)")
                let start = ContinuousClock.now
                let saved = try await store.save([record])
                let tag = saved.first?.recordChangeTag ?? ""
                let seen = try await pool.waitUntilEveryObserverShows(changeTag: tag)
                if round >= 20 { latencies.append(Self.milliseconds(seen - start)) }
            }
            pool.stop()
            medians[size] = Self.percentile(latencies, 0.5)
        }
        report.figure("one changed record, observer of 100,000 results", measured: medians[100_000] ?? 0, baseline: medians[100] ?? 0,
                      unit: "ms", target: .ratioAtMost(2), baselineName: "the same change seen by an observer of 100 results (commit to change set, p50)")
    }

    // MARK: Helpers

    static func item(_ name: String, value: Int) -> Record {
        Record(recordType: "Item", recordID: RecordID(recordName: name), fields: ["value": .int(Int64(value))])
    }

    static func milliseconds(_ duration: Duration) -> Double { seconds(duration) * 1000 }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}

/// Observers of one query, each a task iterating `store.observe`, reporting what each last saw.
final class ObserverPool: @unchecked Sendable {
    /// What an observer last saw, and when.
    private struct Seen {
        var first: String?
        var changeTags: [RecordID: String] = [:]
        var time = ContinuousClock.now
        var changes = 0
    }

    private let seen: LockedState<[Seen]>
    private let observerCount: Int
    /// Signalled by every observer after each change, for the one task waiting.
    private let wakeup = Wakeup()
    private var tasks: [Task<Void, Never>] = []
    private let store: Store
    private let query: RecordQuery
    private let limit: Int?

    init(store: Store, query: RecordQuery, limit: Int?, count: Int) {
        self.store = store
        self.query = query
        self.limit = limit
        seen = LockedState(Array(repeating: Seen(), count: count))
        observerCount = count
    }

    /// Starts the observers and waits for each one's first results.
    func started() async throws {
        for index in 0..<observerCount {
            let observation = store.observe(query, limit: limit)
            tasks.append(Task { [self] in
                do {
                    for try await change in observation {
                        let first = change.records.first?.recordID.recordName
                        // The change tags of the records that changed (all of them, the first time).
                        var tags: [RecordID: String] = [:]
                        if change.kind == .initial {
                            for record in change.records.prefix(200) { tags[record.recordID] = record.recordChangeTag }
                        } else {
                            for position in change.difference.updates.map(\.to) + change.difference.insertions {
                                tags[change.records[position].recordID] = change.records[position].recordChangeTag
                            }
                        }
                        let now = ContinuousClock.now
                        seen.withLock { seen in
                            seen[index].first = first
                            seen[index].changeTags.merge(tags) { $1 }
                            seen[index].time = now
                            seen[index].changes += 1
                        }
                        wakeup.signal()
                    }
                } catch {}
            })
        }
        _ = try await waitUntil { $0.changes > 0 }
    }

    /// Waits until every observer's first result is this record; the time the last one saw it.
    func waitUntilEveryObserverShows(first name: String) async throws -> ContinuousClock.Instant {
        try await waitUntil { $0.first == name }
    }

    /// Waits until every observer saw a record with this change tag; the time the last one did.
    func waitUntilEveryObserverShows(changeTag: String) async throws -> ContinuousClock.Instant {
        try await waitUntil { $0.changeTags.values.contains(changeTag) }
    }

    private func waitUntil(_ condition: (Seen) -> Bool) async throws -> ContinuousClock.Instant {
        while true {
            let done: ContinuousClock.Instant? = seen.withLock { seen in
                guard seen.allSatisfy(condition) else { return nil }
                return seen.map(\.time).max() ?? .now
            }
            if let done { return done }
            try Task.checkCancellation()
            await wakeup.wait(upTo: .seconds(1))
        }
    }

    func stop() {
        for task in tasks { task.cancel() }
    }
}

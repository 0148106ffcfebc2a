import Foundation
import GRDB
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The SQLite engine on `cities1000` (170,391 records): bulk import with the default indexes
/// (``IndexPolicy/automatic``) against hand-written batched GRDB inserts into the same, already
/// indexed layout (target: at least 1.5x their rate) and into one bare table (target: at least
/// 0.3x); the store's size with the default indexes and with every index (`--indexes all`),
/// each beside the same layout by hand and the JSON (target: at most 3x the JSON with the
/// defaults); queries (indexed, folded, full text, radius) against the same SQL written by hand
/// through GRDB on the same file (target: within 1.25x); and `ANY` tests over a list
/// (``measureListQueries(_:storePath:)``).
struct StoreSection: BenchmarkSection {
    let name = "store"
    let title = "SQLite engine on cities1000 (170,391 records)"

    static let dataset = "cities1000.jsonl.gz"
    static let paris = Location(latitude: 48.8566, longitude: 2.3522)
    /// The default zone as the engines store it (``TableLayout/zoneKey(_:)``), bound by the
    /// hand-written SQL so that it reads the same rows the same way.
    static let defaultZoneKey = TableLayout.zoneKey(.default)

    func run(report: BenchmarkReport) async throws {
        let cities = try Datasets.jsonLines(StoreSection.dataset)
        report.note("loaded \(cities.count) cities")
        let (store, storePath, allIndexesPath) = try measureImports(report, cities: cities)

        // The store imported with the defaults (IndexPolicy.automatic) has every index these
        // queries seek: name is QUERYABLE (its index and its $c and $cd folded columns) and
        // SEARCHABLE, population SORTABLE, location QUERYABLE (its band index). None sorts by a
        // localized key, the one thing the defaults leave out of a string.
        let queue = try DatabaseQueue(path: storePath)
        try await measureQuery(
            report, store: store, queue: queue, name: "indexed equality: name == \"Springfield\"",
            predicate: FormatPredicate(format: "name == %@", "Springfield"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND "name" = ? ORDER BY "$recordName""#,
            handArguments: [StoreSection.defaultZoneKey, "Springfield"])
        try await measureQuery(
            report, store: store, queue: queue, name: "range, sort, limit 50: population 100k-200k",
            predicate: FormatPredicate(format: "population BETWEEN {100000, 200000}"),
            sorts: [Sort("population", ascending: false)], limit: 50,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND "population" BETWEEN ? AND ? ORDER BY "population" DESC, "$recordName" LIMIT 50"#,
            handArguments: [StoreSection.defaultZoneKey, 100_000, 200_000])
        try await measureQuery(
            report, store: store, queue: queue, name: "full text: self CONTAINS \"springfield\"",
            predicate: FormatPredicate(format: "self CONTAINS %@", "springfield"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND rowid IN (SELECT rowid FROM "City$fts" WHERE "City$fts" MATCH ?) ORDER BY "$recordName""#,
            handArguments: [StoreSection.defaultZoneKey, "\"springfield\""])
        // Folded searches: the folded columns' indexes against hand-written SQL on the same
        // folded, indexed column (name$cd, name$c), and against an evaluator scan (informational).
        try await measureQuery(
            report, store: store, queue: queue, name: "folded prefix: name BEGINSWITH[cd] \"sao\"",
            predicate: FormatPredicate(format: "name BEGINSWITH[cd] %@", "sao"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND "name$cd" >= ? AND "name$cd" < ? ORDER BY "$recordName""#,
            handArguments: [StoreSection.defaultZoneKey, "sao", "sap"], scanFormat: "TERNARY(TRUEPREDICATE, name, '') BEGINSWITH[cd] %@", scanArgument: "sao")
        try await measureQuery(
            report, store: store, queue: queue, name: "folded equality: name ==[cd] \"sao paulo\"",
            predicate: FormatPredicate(format: "name ==[cd] %@", "sao paulo"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND "name$cd" = ? ORDER BY "$recordName""#,
            handArguments: [StoreSection.defaultZoneKey, "sao paulo"], scanFormat: "TERNARY(TRUEPREDICATE, name, '') ==[cd] %@", scanArgument: "sao paulo")
        try await measureQuery(
            report, store: store, queue: queue, name: "folded pattern: name LIKE[c] \"san*\"",
            predicate: FormatPredicate(format: "name LIKE[c] %@", "san*"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND "name$c" >= ? AND "name$c" < ? ORDER BY "$recordName""#,
            handArguments: [StoreSection.defaultZoneKey, "san", "sao"], scanFormat: "TERNARY(TRUEPREDICATE, name, '') LIKE[c] %@", scanArgument: "san*")
        try await measureQuery(
            report, store: store, queue: queue, name: "folded substring: name CONTAINS[cd] \"sao\"",
            predicate: FormatPredicate(format: "name CONTAINS[cd] %@", "sao"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND instr("name$cd", ?) > 0 ORDER BY "$recordName""#,
            handArguments: [StoreSection.defaultZoneKey, "sao"], scanFormat: "TERNARY(TRUEPREDICATE, name, '') CONTAINS[cd] %@", scanArgument: "sao")
        let latitudeDelta = 50_000 / 111_320.0
        let longitudeDelta = latitudeDelta / cos(StoreSection.paris.latitude * .pi / 180)
        let box = (south: StoreSection.paris.latitude - latitudeDelta, north: StoreSection.paris.latitude + latitudeDelta,
                   west: StoreSection.paris.longitude - longitudeDelta, east: StoreSection.paris.longitude + longitudeDelta)
        // By hand, first with SQLite's spatial index: an R*Tree of the points, built beside the
        // store's tables for this figure (the engine's layout before version 5)...
        try await queue.write { db in
            try db.execute(sql: #"""
                CREATE VIRTUAL TABLE IF NOT EXISTS "bench$rtree" USING rtree(id, minLatitude, maxLatitude, minLongitude, maxLongitude);
                INSERT INTO "bench$rtree" SELECT rowid, "location$latitude", "location$latitude", "location$longitude", "location$longitude"
                    FROM "City" WHERE "location$latitude" IS NOT NULL;
                """#)
        }
        // ...and through the engine's band index, as a reader of its layout would.
        let bands = Array(Int64((box.south + 90) * 2)...Int64((box.north + 90) * 2))
        let handWrittenRadius: [(name: String, sql: String, arguments: StatementArguments, baseline: String)] = [
            ("radius 50 km around Paris", #"""
                SELECT t.* FROM "City" t
                WHERE t."$zone" = ? AND t.rowid IN (SELECT id FROM "bench$rtree"
                    WHERE minLatitude <= ? AND maxLatitude >= ? AND minLongitude <= ? AND maxLongitude >= ?)
                ORDER BY t."$recordName"
                """#, [StoreSection.defaultZoneKey, box.north, box.south, box.east, box.west],
             "hand-written SQL through an R*Tree of the points"),
            ("radius 50 km around Paris, vs the same index by hand", #"""
                SELECT t.* FROM "City" t
                WHERE t."$zone" = ? AND t.rowid IN (SELECT rowid FROM "City"
                    WHERE CAST(("location$latitude" + 90) * 2 AS INTEGER) IN (\#(bands.map { _ in "?" }.joined(separator: ", ")))
                    AND "location$longitude" BETWEEN ? AND ? AND "location$latitude" BETWEEN ? AND ?)
                ORDER BY t."$recordName"
                """#, StatementArguments([StoreSection.defaultZoneKey] + bands + [box.west, box.east, box.south, box.north]),
             "hand-written SQL through the engine's band index"),
        ]
        for hand in handWrittenRadius {
            try await measureQuery(
                report, store: store, queue: queue, name: hand.name,
                predicate: FormatPredicate(format: "distanceToLocation:fromLocation:(location, %@) < 50000", StoreSection.paris),
                sorts: [], limit: nil, handSQL: hand.sql, handArguments: hand.arguments,
                exactDistanceFrom: StoreSection.paris, radius: 50_000, baselineName: hand.baseline)
        }
        try await measureListQueries(report, storePath: allIndexesPath)
        try await measureUndeclaredListScan(report, storePath: storePath)
    }

    /// Times a store query against hand-written SQL that returns the same rows decoded
    /// into the same values (scalar columns, and the list members of those rows in one query).
    /// `runs` and `iterations` set how often each side runs (the best run counts).
    func measureQuery(
        _ report: BenchmarkReport, store: Store, queue: DatabaseQueue, name: String,
        predicate: FormatPredicate, sorts: [Sort], limit: Int?,
        handSQL: String, handArguments: StatementArguments,
        exactDistanceFrom origin: Location? = nil, radius: Double = 0, baselineName: String? = nil,
        scanFormat: String? = nil, scanArgument: String = "", runs: Int = 5, iterations: Int = 20
    ) async throws {
        var ourCount = 0
        var handCount = 0
        let (ours, hand) = try Stopwatch.pairedNanosecondsPerIteration(runs: runs, iterations: iterations, {
            ourCount = try store.records(ofType: "City", matching: predicate, sorts: sorts, limit: limit).count
        }, {
            handCount = try queue.read { db in
                try StoreSection.handWrittenRecords(db, sql: handSQL, arguments: handArguments, origin: origin, radius: radius).count
            }
        })
        report.figure(name, measured: ours / 1e6, baseline: hand / 1e6, unit: "ms", target: .ratioAtMost(1.25), baselineName: baselineName)
        if let scanFormat {
            // The same test where SQL cannot use the folded column: every row through the evaluator.
            let scanPredicate = try FormatPredicate(format: scanFormat, scanArgument)
            var scanCount = 0
            let scan = try Stopwatch.nanosecondsPerIteration(runs: 1, iterations: 2) {
                scanCount = try store.records(ofType: "City", matching: scanPredicate, sorts: sorts, limit: limit).count
            }
            report.figure("\(name), indexed vs scanned", measured: ours / 1e6, baseline: scan / 1e6, unit: "ms", target: .none,
                          baselineName: "the evaluator on every row (the plan before folded columns)")
            if scanCount != ourCount { report.note("MISMATCH: the scan returned \(scanCount) records, the indexed plan \(ourCount)") }
        }
        if ourCount != handCount {
            report.note("MISMATCH: store returned \(ourCount) records, hand-written SQL \(handCount)")
        } else {
            report.note("\(ourCount) records")
        }
    }
}

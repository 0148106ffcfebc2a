import Foundation
import GRDB
import PredicateLanguage
import RecordStore

/// The SQLite engine on `cities1000` (170,391 records): bulk import against
/// hand-written batched GRDB inserts into the same, already indexed layout (target: at
/// least 1.5x their rate) and into one bare table (target: at least 0.3x), and queries
/// (indexed, folded, full text, radius) against the same SQL written by hand through GRDB
/// on the same file (target: within 1.25x).
struct StoreSection: BenchmarkSection {
    let name = "store"
    let title = "SQLite engine on cities1000 (170,391 records)"

    static let dataset = "cities1000.jsonl.gz"
    static let paris = Location(latitude: 48.8566, longitude: 2.3522)

    func run(report: BenchmarkReport) async throws {
        let cities = try Datasets.jsonLines(StoreSection.dataset)
        report.note("loaded \(cities.count) cities")

        // Import: ours through RecordImporter (records, list side table, full-text, R*Tree)...
        let storePath = Datasets.temporaryDatabase("store")
        let store = try Store.open(path: storePath)
        var importer = RecordImporter(recordType: "City")
        importer.idField = "geonameid"
        importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
        let importSeconds = try Stopwatch.seconds(runs: 1) {
            _ = try importer.importFile(at: Datasets.path(StoreSection.dataset), into: store)
        }
        // ...against hand-written batched inserts of the same rows into one table
        // (lists as JSON text), 5,000 rows a transaction.
        let handPath = Datasets.temporaryDatabase("hand")
        let handSeconds = try Stopwatch.seconds(runs: 1) {
            try StoreSection.handWrittenImport(cities, path: handPath)
        }
        // ...and against hand-written inserts that build the engine's whole layout.
        let sameLayoutSeconds = try Stopwatch.seconds(runs: 1) {
            try SameLayoutImport.run(cities, path: Datasets.temporaryDatabase("same-layout"))
        }
        let ourRate = Double(cities.count) / importSeconds
        report.note(String(format: "import of %d cities: %.1f s, %.1f k records/s", cities.count, importSeconds, ourRate / 1000))
        report.figure("import rate vs the same layout by hand", measured: ourRate / 1000,
                      baseline: Double(cities.count) / sameLayoutSeconds / 1000, unit: "k rec/s", target: .ratioAtLeast(1.5),
                      baselineName: "hand-written batched inserts into the same, already indexed tables (derived columns, list table, FTS5, R*Tree)")
        report.figure("import rate vs one bare table", measured: ourRate / 1000,
                      baseline: Double(cities.count) / handSeconds / 1000, unit: "k rec/s", target: .ratioAtLeast(0.3),
                      baselineName: "hand-written batched inserts into one table with two indexes, lists as JSON (no list index, FTS, R*Tree)")

        let queue = try DatabaseQueue(path: storePath)
        try await measureQuery(
            report, store: store, queue: queue, name: "indexed equality: name == \"Springfield\"",
            predicate: FormatPredicate(format: "name == %@", "Springfield"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND "name" = ? ORDER BY "$recordName""#,
            handArguments: ["_defaultZone", "Springfield"])
        try await measureQuery(
            report, store: store, queue: queue, name: "range, sort, limit 50: population 100k-200k",
            predicate: FormatPredicate(format: "population BETWEEN {100000, 200000}"),
            sorts: [Sort("population", ascending: false)], limit: 50,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND "population" BETWEEN ? AND ? ORDER BY "population" DESC, "$recordName" LIMIT 50"#,
            handArguments: ["_defaultZone", 100_000, 200_000])
        try await measureQuery(
            report, store: store, queue: queue, name: "full text: self CONTAINS \"springfield\"",
            predicate: FormatPredicate(format: "self CONTAINS %@", "springfield"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND rowid IN (SELECT rowid FROM "City$fts" WHERE "City$fts" MATCH ?) ORDER BY "$recordName""#,
            handArguments: ["_defaultZone", "\"springfield\""])
        // Folded searches: the folded columns' indexes against hand-written SQL on the same
        // folded, indexed column (name$cd, name$c), and against an evaluator scan (informational).
        try await measureQuery(
            report, store: store, queue: queue, name: "folded prefix: name BEGINSWITH[cd] \"sao\"",
            predicate: FormatPredicate(format: "name BEGINSWITH[cd] %@", "sao"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND "name$cd" >= ? AND "name$cd" < ? ORDER BY "$recordName""#,
            handArguments: ["_defaultZone", "sao", "sap"], scanFormat: "TERNARY(TRUEPREDICATE, name, '') BEGINSWITH[cd] %@", scanArgument: "sao")
        try await measureQuery(
            report, store: store, queue: queue, name: "folded equality: name ==[cd] \"sao paulo\"",
            predicate: FormatPredicate(format: "name ==[cd] %@", "sao paulo"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND "name$cd" = ? ORDER BY "$recordName""#,
            handArguments: ["_defaultZone", "sao paulo"], scanFormat: "TERNARY(TRUEPREDICATE, name, '') ==[cd] %@", scanArgument: "sao paulo")
        try await measureQuery(
            report, store: store, queue: queue, name: "folded pattern: name LIKE[c] \"san*\"",
            predicate: FormatPredicate(format: "name LIKE[c] %@", "san*"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND "name$c" >= ? AND "name$c" < ? ORDER BY "$recordName""#,
            handArguments: ["_defaultZone", "san", "sao"], scanFormat: "TERNARY(TRUEPREDICATE, name, '') LIKE[c] %@", scanArgument: "san*")
        try await measureQuery(
            report, store: store, queue: queue, name: "folded substring: name CONTAINS[cd] \"sao\"",
            predicate: FormatPredicate(format: "name CONTAINS[cd] %@", "sao"), sorts: [], limit: nil,
            handSQL: #"SELECT * FROM "City" WHERE "$zone" = ? AND instr("name$cd", ?) > 0 ORDER BY "$recordName""#,
            handArguments: ["_defaultZone", "sao"], scanFormat: "TERNARY(TRUEPREDICATE, name, '') CONTAINS[cd] %@", scanArgument: "sao")
        let latitudeDelta = 50_000 / 111_320.0
        let longitudeDelta = latitudeDelta / cos(StoreSection.paris.latitude * .pi / 180)
        try await measureQuery(
            report, store: store, queue: queue, name: "radius 50 km around Paris",
            predicate: FormatPredicate(format: "distanceToLocation:fromLocation:(location, %@) < 50000", StoreSection.paris),
            sorts: [], limit: nil,
            handSQL: #"""
                SELECT t.* FROM "City" t
                WHERE t."$zone" = ? AND t.rowid IN (SELECT id FROM "City$location$rtree"
                    WHERE minLatitude <= ? AND maxLatitude >= ? AND minLongitude <= ? AND maxLongitude >= ?)
                ORDER BY t."$recordName"
                """#,
            handArguments: ["_defaultZone", StoreSection.paris.latitude + latitudeDelta, StoreSection.paris.latitude - latitudeDelta,
                            StoreSection.paris.longitude + longitudeDelta, StoreSection.paris.longitude - longitudeDelta],
            exactDistanceFrom: StoreSection.paris, radius: 50_000)
    }

    /// Times a store query against hand-written SQL that returns the same rows decoded
    /// into the same values (scalar columns, and the list members of those rows in one query).
    private func measureQuery(
        _ report: BenchmarkReport, store: Store, queue: DatabaseQueue, name: String,
        predicate: FormatPredicate, sorts: [Sort], limit: Int?,
        handSQL: String, handArguments: StatementArguments,
        exactDistanceFrom origin: Location? = nil, radius: Double = 0,
        scanFormat: String? = nil, scanArgument: String = ""
    ) async throws {
        var ourCount = 0
        let ours = try Stopwatch.nanosecondsPerIteration(runs: 5, iterations: 20) {
            ourCount = try store.records(ofType: "City", matching: predicate, sorts: sorts, limit: limit).count
        }
        var handCount = 0
        let hand = try Stopwatch.nanosecondsPerIteration(runs: 5, iterations: 20) {
            handCount = try queue.read { db in
                try StoreSection.handWrittenRecords(db, sql: handSQL, arguments: handArguments, origin: origin, radius: radius).count
            }
        }
        report.figure(name, measured: ours / 1e6, baseline: hand / 1e6, unit: "ms", target: .ratioAtMost(1.25))
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

    /// The columns of a city record's row: metadata and fields.
    static let recordColumns = [
        "$zone", "$recordName", "$creationDate", "$modificationDate", "$recordChangeTag", "admin1code", "alternatenames",
        "countrycode", "geonameid", "latitude", "location", "location$latitude", "location$longitude", "longitude", "name",
        "population", "timezone",
    ]

    /// Rows decoded into dictionaries of values, with each row's list members from one extra query.
    static func handWrittenRecords(_ db: GRDB.Database, sql: String, arguments: StatementArguments, origin: Location?, radius: Double) throws -> [[String: Value]] {
        var records: [[String: Value]] = []
        var rowIDs: [Int64] = []
        // The record's own columns, as the engine reads them (not the derived columns).
        let columns = recordColumns.map { "\"\($0)\"" }
        let rows = try Row.fetchCursor(db, sql: sql.replacingOccurrences(of: "SELECT *", with: "SELECT rowid, \(columns.joined(separator: ", "))")
                                        .replacingOccurrences(of: "SELECT t.*", with: "SELECT t.rowid, \(columns.map { "t." + $0 }.joined(separator: ", "))"),
                                       arguments: arguments)
        while let row = try rows.next() {
            var fields: [String: Value] = [:]
            for (column, databaseValue) in row.dropFirst() {
                switch databaseValue.storage {
                case .null: continue
                case .int64(let integer): fields[column] = .int(integer)
                case .double(let double): fields[column] = .double(double)
                case .string(let text): fields[column] = .string(text)
                case .blob(let data): fields[column] = .bytes(data)
                }
            }
            if let origin {
                guard case .double(let latitude)? = fields["location$latitude"], case .double(let longitude)? = fields["location$longitude"],
                      Location(latitude: latitude, longitude: longitude).distance(to: origin) < radius else { continue }
            }
            rowIDs.append(row[0])
            records.append(fields)
        }
        guard !rowIDs.isEmpty else { return records }
        let members = try Row.fetchCursor(
            db, sql: #"SELECT record, field, value FROM "City$list" WHERE record IN (\#(rowIDs.map(String.init).joined(separator: ","))) ORDER BY record, field, position"#)
        var lists: [Int64: [String: [Value]]] = [:]
        while let member = try members.next() {
            let record: Int64 = member[0]
            let field: String = member[1]
            let value: String? = member[2]
            lists[record, default: [:]][field, default: []].append(value.map(Value.string) ?? .null)
        }
        for (index, rowID) in rowIDs.enumerated() {
            for (field, values) in lists[rowID] ?? [:] { records[index][field] = .list(values) }
        }
        return records
    }

    /// The baseline import: one table with a column per field, lists as JSON text,
    /// 5,000 rows per transaction through one prepared statement.
    static func handWrittenImport(_ cities: [[String: Value]], path: String) throws {
        let queue = try DatabaseQueue(path: path)
        let columns = ["geonameid", "name", "latitude", "longitude", "countrycode", "population", "timezone", "admin1code", "alternatenames"]
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE city (\(columns.map { "\($0)" }.joined(separator: ", ")))")
            try db.execute(sql: "CREATE INDEX city_name ON city(name)")
            try db.execute(sql: "CREATE INDEX city_population ON city(population)")
        }
        let insert = "INSERT INTO city VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        var start = 0
        while start < cities.count {
            let batch = cities[start..<min(start + 5_000, cities.count)]
            try queue.write { db in
                let statement = try db.cachedStatement(sql: insert)
                for city in batch {
                    let values: [DatabaseValue] = columns.map { column in
                        switch city[column] ?? .null {
                        case .int(let integer): integer.databaseValue
                        case .double(let double): double.databaseValue
                        case .string(let text): text.databaseValue
                        case .list(let list): Value.list(list).jsonText().databaseValue
                        default: .null
                        }
                    }
                    try statement.execute(arguments: StatementArguments(values))
                }
            }
            start += 5_000
        }
    }
}

// Part of the PostgreSQL trait.
#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
import RecordStorePostgres

/// The PostgreSQL engine on cities1000, against the same work written by hand through
/// PostgresNIO on the same server and data: import with the default indexes (against
/// hand-written batched inserts and a hand-written `COPY` of the same rows into a copy of the same
/// table, with the same indexes; target: at least 0.5x `COPY`), the relation sizes with the
/// defaults and with `--indexes all` (each beside the same tables made again by hand, and beside
/// the JSON; target: at most 3x the JSON with the defaults), queries and `ANY` tests over a list
/// (each against its SQL written by hand; target: within 1.25x), keyset paging, and 16
/// concurrent clients against 1. Runs when `QUERY_BENCH_POSTGRES_URL` names a server
/// (`.ci/postgres start` makes one); each run uses two schemas of its own, dropped at the end.
struct PostgresSection: BenchmarkSection {
    let name = "postgres"
    let title = "PostgreSQL engine on cities1000 (170,391 records), against hand-written SQL through PostgresNIO"

    func run(report: BenchmarkReport) async throws {
        guard let server = ProcessInfo.processInfo.environment["QUERY_BENCH_POSTGRES_URL"], !server.isEmpty else {
            report.note("skipped: set QUERY_BENCH_POSTGRES_URL=postgres://user:password@host:port/database (.ci/postgres start DIR PORT prints one)")
            return
        }
        let schema = "bench_" + UUID().uuidString.prefix(8).lowercased()
        let allSchema = schema + "_all"
        StoreRegistry.shared.register(.postgres)
        let store = try await Store.open(url: Self.url(server, schema: schema))
        let allStore = try await Store.open(url: Self.url(server, schema: allSchema))
        let hand = try HandClient(url: server, schema: schema)
        let allHand = try HandClient(url: server, schema: allSchema)
        defer {
            hand.close()
            allHand.close()
        }
        do {
            try await measureAll(report, store: store, hand: hand, allStore: allStore, allHand: allHand, schemas: (schema, allSchema))
        } catch {
            try? await Self.drop([schema, allSchema], hand)
            throw error
        }
        try await Self.drop([schema, allSchema], hand)
        report.note("server: \(PostgresSection.redacted(server)); schemas \(schema) and \(allSchema), dropped")
    }

    /// The server's URL with a schema of the run's own.
    static func url(_ server: String, schema: String) -> String {
        server + (server.contains("?") ? "&" : "?") + "schema=" + schema
    }

    /// Drops the run's schemas.
    static func drop(_ schemas: [String], _ hand: HandClient) async throws {
        for schema in schemas {
            try await hand.client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE"), logger: hand.logger)
        }
    }

    /// Imports cities1000 into `store` (with the defaults, as `query import` does) and into
    /// `allStore` (with `--indexes all`), and measures the figures.
    private func measureAll(
        _ report: BenchmarkReport, store: Store, hand: HandClient, allStore: Store, allHand: HandClient, schemas: (String, String)
    ) async throws {
        // Import through the store (rows, derived columns, full-text tokens; list members only
        // with every index). The defaults (IndexPolicy.automatic) index every field the queries
        // below test: name QUERYABLE (with $c and $cd) and SEARCHABLE, population SORTABLE,
        // location QUERYABLE (its SP-GiST index); none sorts by a localized key.
        let importSeconds = try await Self.importCities(into: store, indexes: nil)
        let allSeconds = try await Self.importCities(into: allStore, indexes: .all)
        let rate = Double(Cities1000Database.recordCount) / importSeconds / 1000
        report.note(String(format: "import of %d cities with the defaults: %.1f s; with every index: %.1f s",
                           Cities1000Database.recordCount, importSeconds, allSeconds))

        try await measureSizes(report, stores: [("defaults", hand, schemas.0, .ratioAtMost(3)), ("all indexes", allHand, schemas.1, .none)])

        // The same rows, written by hand into a copy of the table (same columns and indexes).
        let rows = try await hand.rowsAsText(table: "City")
        let insertSeconds = try await hand.timedBatchedInserts(rows, into: "City$hand$insert", like: "City")
        let copySeconds = try await hand.timedCopy(rows, into: "City$hand$copy", like: "City")
        report.figure("import rate vs hand-written batched INSERT", measured: rate, baseline: Double(rows.values.count) / insertSeconds / 1000,
                      unit: "k rec/s", target: .none,
                      baselineName: "the rows the store wrote, re-inserted 1,000 a statement into a copy of its table with the same indexes")
        report.figure("import rate vs hand-written COPY", measured: rate, baseline: Double(rows.values.count) / copySeconds / 1000,
                      unit: "k rec/s", target: .ratioAtLeast(0.5),
                      baselineName: "the same rows through COPY FROM STDIN into another copy; target (#29): at least 0.5x")
        report.note("the store's figure includes reading and parsing the file and computing the folded columns, sort keys and tokens in Swift")

        try await measure(report, store: store, hand: hand, name: "indexed equality: name == \"Springfield\"",
                          predicate: FormatPredicate(format: "name == %@", "Springfield"), sorts: [], limit: nil,
                          sql: #"SELECT * FROM "City" WHERE "$zone" = $1 AND "name" = $2 ORDER BY "$recordName""#,
                          arguments: [.text(StoreSection.defaultZoneKey), .text("Springfield")])
        try await measure(report, store: store, hand: hand, name: "range, sort, limit 50: population 100k-200k",
                          predicate: FormatPredicate(format: "population BETWEEN {100000, 200000}"),
                          sorts: [Sort("population", ascending: false)], limit: 50,
                          sql: #"SELECT * FROM "City" WHERE "$zone" = $1 AND "population" BETWEEN $2 AND $3 ORDER BY "population" DESC NULLS LAST, "$recordName" LIMIT 50"#,
                          arguments: [.text(StoreSection.defaultZoneKey), .integer(100_000), .integer(200_000)])
        try await measure(report, store: store, hand: hand, name: "folded prefix: name BEGINSWITH[cd] \"sao\"",
                          predicate: FormatPredicate(format: "name BEGINSWITH[cd] %@", "sao"), sorts: [], limit: nil,
                          sql: #"SELECT * FROM "City" WHERE "$zone" = $1 AND COALESCE("name$cd", "name$c") >= $2 AND COALESCE("name$cd", "name$c") < $3 ORDER BY "$recordName""#,
                          arguments: [.text(StoreSection.defaultZoneKey), .text("sao"), .text("sap")])
        try await measure(report, store: store, hand: hand, name: "full text: self CONTAINS \"springfield\"",
                          predicate: FormatPredicate(format: "self CONTAINS %@", "springfield"), sorts: [], limit: nil,
                          sql: #"SELECT * FROM "City" WHERE "$zone" = $1 AND "$fullText" @@ $2::tsquery ORDER BY "$recordName""#,
                          arguments: [.text(StoreSection.defaultZoneKey), .text("'springfield'")])
        try await measure(report, store: store, hand: hand, name: "radius: 50 km around Paris",
                          predicate: FormatPredicate(format: "distanceToLocation:fromLocation:(location, %@) < 50000", Value.location(StoreSection.paris)),
                          sorts: [], limit: nil,
                          sql: #"SELECT * FROM "City" WHERE "$zone" = $1 AND point("location$latitude", "location$longitude") <@ box(point($2, $3), point($4, $5)) AND 6371008.8 * 2 * asin(sqrt(power(sin(radians("location$latitude" - $6) / 2), 2) + cos(radians($6)) * cos(radians("location$latitude")) * power(sin(radians("location$longitude" - $7) / 2), 2))) < 50000 ORDER BY "$recordName""#,
                          arguments: [.text(StoreSection.defaultZoneKey), .real(48.4066), .real(1.6566), .real(49.3066), .real(3.0478), .real(48.8566), .real(2.3522)])
        try await measureListQueries(report, store: allStore, hand: allHand)
        try await measureKeyset(report, store: store)
        try await measureConcurrency(report, store: store)
        if let server = ProcessInfo.processInfo.environment["QUERY_BENCH_POSTGRES_URL"] {
            try await measureReplicaReads(report, server: server, schema: schemas.0, primaryStore: store)
        }
    }

    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// A query through the store against its SQL by hand (both return whole rows), median of runs.
    func measure(
        _ report: BenchmarkReport, store: Store, hand: HandClient, name: String, predicate: FormatPredicate,
        sorts: [Sort], limit: Int?, sql: String, arguments: [SQLValue]
    ) async throws {
        var ours: [Double] = []
        var theirs: [Double] = []
        var counts = (0, 0)
        // Warm both sides first: every pooled connection plans and caches on first use.
        for _ in 0..<5 {
            _ = try await store.records(ofType: "City", matching: predicate, sorts: sorts, limit: limit)
            _ = try await hand.count(sql, arguments)
        }
        for _ in 0..<15 {
            let start = DispatchTime.now().uptimeNanoseconds
            counts.0 = try await store.records(ofType: "City", matching: predicate, sorts: sorts, limit: limit).count
            ours.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            let handStart = DispatchTime.now().uptimeNanoseconds
            counts.1 = try await hand.count(sql, arguments)
            theirs.append(Double(DispatchTime.now().uptimeNanoseconds - handStart) / 1e6)
        }
        report.figure(name, measured: Self.median(ours), baseline: Self.median(theirs), unit: "ms", target: .ratioAtMost(1.25),
                      baselineName: "the same query by hand through PostgresNIO (\(counts.1) rows; the store returned \(counts.0) records)")
    }

    /// Reading 10,000 cities by population through keyset pages of 1,000 against pages of 1.
    private func measureKeyset(_ report: BenchmarkReport, store: Store) async throws {
        let query = try RecordQuery(recordType: "City", predicate: FormatPredicate(format: "population > 0"), sorts: [Sort("population", ascending: false)])
        func perRecord(batch: Int, total: Int) async throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            var page = try await store.records(matching: query, resultsLimit: batch)
            var read = page.records.count
            while read < total, let cursor = page.cursor {
                page = try await store.records(continuingMatchFrom: cursor, resultsLimit: batch)
                read += page.records.count
            }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(read)
        }
        let large = try await perRecord(batch: 1_000, total: 10_000)
        let single = try await perRecord(batch: 1, total: 300)
        report.figure("keyset paging per record: batch 1,000 vs batch 1", measured: large, baseline: single, unit: "µs", target: .none,
                      baselineName: "pages of one record (a round trip and a seek per record)")
    }

    /// 16 clients against 1: indexed queries, then a 90/10 read/write mix. Each side runs three
    /// times, alternating with the other, and counts by its median run: a run is about a second
    /// on a machine whose cores the server shares, too short for one to be trusted.
    private func measureConcurrency(_ report: BenchmarkReport, store: Store) async throws {
        let queries = try ConcurrencySection.queries().prefix(1_600).map { $0 }
        func rate(tasks: Int, writes: Bool, run: Int) async throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        for index in stride(from: task, to: queries.count, by: tasks) {
                            if writes, index % 10 == 0 {
                                let name = "v\(index)-\(tasks)-\(run)"
                                _ = try await store.save([Record(recordType: "Visit", recordID: RecordID(recordName: name), fields: ["at": .int(Int64(index))])])
                            } else {
                                let query = queries[index]
                                blackHole(try await store.records(ofType: query.recordType, matching: query.predicate, sorts: query.sorts, limit: 20))
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            return Double(queries.count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        /// The median rates of one client and of sixteen, measured in turns.
        func rates(writes: Bool) async throws -> (one: Double, sixteen: Double) {
            var one: [Double] = []
            var sixteen: [Double] = []
            for run in 0..<3 {
                one.append(try await rate(tasks: 1, writes: writes, run: run))
                sixteen.append(try await rate(tasks: 16, writes: writes, run: run))
            }
            return (Self.median(one), Self.median(sixteen))
        }
        _ = try await rate(tasks: 4, writes: false, run: 0)
        let queried = try await rates(writes: false)
        report.figure("indexed queries/s, 16 clients vs 1", measured: queried.sixteen, baseline: queried.one, unit: "q/s", target: .ratioAtLeast(1.5),
                      baselineName: "the same queries from 1 client, one after the other (medians of 3 runs each, in turns)")
        let mixed = try await rates(writes: true)
        report.figure("90/10 read/write operations/s, 16 clients vs 1", measured: mixed.sixteen, baseline: mixed.one, unit: "op/s", target: .ratioAtLeast(1.5),
                      baselineName: "the same mix from 1 client (medians of 3 runs each, in turns)")
        report.note("\(ProcessInfo.processInfo.activeProcessorCount) cores shared by the server and the clients")
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

/// Hand-written SQL through PostgresNIO: one connection to the benchmark's schema.
final class HandClient: @unchecked Sendable {
    let client: PostgresClient
    private let runTask: Task<Void, Never>
    let logger: Logger

    init(url: String, schema: String) throws {
        guard let components = URLComponents(string: url), let user = components.user, let host = components.host else {
            throw BenchmarkError("QUERY_BENCH_POSTGRES_URL must be postgres://user:password@host:port/database")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: String(components.path.dropFirst()), tls: .disable)
        configuration.options.additionalStartupParameters = [("search_path", "\"\(schema)\"")]
        configuration.options.maximumConnections = 4
        var logger = Logger(label: "query-bench.hand")
        logger.logLevel = .critical
        self.logger = logger
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let client = self.client
        runTask = Task { await client.run() }
    }

    func close() {
        runTask.cancel()
    }

    static func query(_ sql: String, _ arguments: [SQLValue]) -> PostgresQuery {
        PostgresQuery(SQLStatement(sql: sql, arguments: arguments))
    }

    /// How the layout's compact columns are read back, as any hand-written reader of it must:
    /// the modification date is null while it is the creation date, and a location without
    /// altitude keeps only its two number columns (its text column is empty).
    static let readExpressions = [
        "$modificationDate": #"(CASE WHEN "$modificationDate" IS NULL THEN "$creationDate" WHEN "$modificationDate" = 'NaN' THEN NULL ELSE "$modificationDate" END) AS "$modificationDate""#,
        "location": #"(CASE WHEN "location" = '' THEN "location$latitude"::text || ',' || "location$longitude"::text ELSE "location" END) AS "location""#,
    ]

    /// Runs a query and decodes its rows as the SQLite section's hand-written side does
    /// (``StoreSection/handWrittenRecords(_:sql:arguments:origin:radius:)``): the record's own
    /// columns (``StoreSection/recordColumns``, not the derived ones) into dictionaries of values,
    /// lists from the JSON their row holds; returns the count.
    func count(_ sql: String, _ arguments: [SQLValue]) async throws -> Int {
        let columns = StoreSection.recordColumns.map { Self.readExpressions[$0] ?? "\"\($0)\"" }
        let selecting = sql.replacingOccurrences(of: "SELECT *", with: "SELECT \(columns.joined(separator: ", "))")
        let rows = try await client.query(Self.query(selecting, arguments), logger: logger)
        var records: [[String: Value]] = []
        for try await row in rows {
            var fields: [String: Value] = [:]
            for cell in row where cell.bytes != nil {
                switch cell.dataType {
                case .int8: fields[cell.columnName] = .int(try cell.decode(Int64.self))
                case .float8: fields[cell.columnName] = .double(try cell.decode(Double.self))
                default:
                    let text = try cell.decode(String.self)
                    fields[cell.columnName] = cell.columnName == "alternatenames" ? ((try? Value(jsonText: text)) ?? .string(text)) : .string(text)
                }
            }
            records.append(fields)
        }
        return records.count
    }

    /// A table's rows, every column as text (`$row` left out: a copy makes its own).
    func rowsAsText(table: String) async throws -> (columns: [(name: String, type: String)], values: [[String?]]) {
        var columns: [(String, String)] = []
        let described = try await client.query(PostgresQuery(unsafeSQL: """
            SELECT attname::text, format_type(atttypid, atttypmod)::text FROM pg_attribute
            WHERE attrelid = to_regclass('"\(table)"') AND attnum > 0 AND NOT attisdropped AND attname <> '$row' ORDER BY attnum
            """), logger: logger)
        for try await (name, type) in described.decode((String, String).self) { columns.append((name, type)) }
        let list = columns.map { "\"\($0.0)\"::text" }.joined(separator: ", ")
        var values: [[String?]] = []
        let rows = try await client.query(PostgresQuery(unsafeSQL: "SELECT \(list) FROM \"\(table)\""), logger: logger)
        for try await row in rows {
            values.append(row.map { $0.bytes.map { String(buffer: $0) } })
        }
        return (columns, values)
    }

    /// Seconds to insert the rows 1,000 a statement into a new copy of `like`.
    func timedBatchedInserts(_ rows: (columns: [(name: String, type: String)], values: [[String?]]), into table: String, like: String) async throws -> Double {
        try await client.query(PostgresQuery(unsafeSQL: "CREATE TABLE \"\(table)\" (LIKE \"\(like)\" INCLUDING ALL)"), logger: logger)
        let names = rows.columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let start = DispatchTime.now().uptimeNanoseconds
        try await client.withConnection { connection in
            for chunk in stride(from: 0, to: rows.values.count, by: 1_000) {
                let slice = rows.values[chunk..<min(chunk + 1_000, rows.values.count)]
                var bindings = PostgresBindings()
                var tuples: [String] = []
                var number = 0
                for row in slice {
                    var placeholders: [String] = []
                    for (index, value) in row.enumerated() {
                        number += 1
                        placeholders.append("$\(number)::text::\(rows.columns[index].type)")
                        if let value { bindings.append(value) } else { bindings.appendNull() }
                    }
                    tuples.append("(" + placeholders.joined(separator: ", ") + ")")
                }
                try await connection.query(PostgresQuery(unsafeSQL: "INSERT INTO \"\(table)\" (\(names)) VALUES " + tuples.joined(separator: ", "), binds: bindings), logger: logger)
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Seconds to `COPY` the rows into a new copy of `like`.
    func timedCopy(_ rows: (columns: [(name: String, type: String)], values: [[String?]]), into table: String, like: String) async throws -> Double {
        try await client.query(PostgresQuery(unsafeSQL: "CREATE TABLE \"\(table)\" (LIKE \"\(like)\" INCLUDING ALL)"), logger: logger)
        let start = DispatchTime.now().uptimeNanoseconds
        let logger = self.logger
        try await client.withConnection { connection in
            // copyFrom quotes the table and column names itself.
            try await connection.copyFrom(table: table, columns: rows.columns.map(\.name), logger: logger) { writer in
                var buffer = ByteBuffer()
                for row in rows.values {
                    buffer.writeString(row.map { $0.map(HandClient.copyEscaped) ?? "\\N" }.joined(separator: "\t") + "\n")
                    if buffer.readableBytes > 1 << 20 {
                        try await writer.write(buffer)
                        buffer.clear()
                    }
                }
                if buffer.readableBytes > 0 { try await writer.write(buffer) }
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// A value in COPY's text format: backslash, tab, newline and carriage return escaped.
    static func copyEscaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
#endif

import Foundation
import GRDB
#if PostgreSQL
import PostgresNIO
@_spi(StorageEngine) import RecordStoreSQL
#endif

/// The writes benchmark's baselines: new rows inserted by hand, a transaction of a few rows at a
/// time, into a table with the columns a store keeps for the same records (the zone and record
/// name as the key, the change tag, the two dates, the author, and the fields).
enum HandWrittenInserts {
    /// The table's columns after its key.
    static let columns = ["recordChangeTag", "creationDate", "modificationDate", "creator", "title", "rank", "score"]

    /// One row's values after its key.
    static func values(_ row: Int, transaction: Int) -> (tag: String, date: Double, title: String, rank: Int64, score: Double) {
        (String(UInt64(transaction * 1_000 + row), radix: 36), Date().timeIntervalSinceReferenceDate, "note \(transaction) \(row)", Int64(row), Double(row) / 3)
    }

    /// A new SQLite file with the store's settings (WAL, `synchronous = NORMAL`).
    static func sqliteQueue(path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Rows a second inserted through GRDB into a new SQLite file with the store's settings
    /// (WAL, `synchronous = NORMAL`), `rowsPerTransaction` to a transaction.
    static func sqliteRate(path: String, transactions: Int, rowsPerTransaction: Int) async throws -> Double {
        let queue = try sqliteQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE notes (zone TEXT NOT NULL, recordName TEXT NOT NULL, recordChangeTag TEXT, creationDate REAL,
                    modificationDate REAL, creator TEXT, title TEXT, rank INTEGER, score REAL, PRIMARY KEY (zone, recordName))
                """)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        for transaction in 0..<transactions {
            try await queue.write { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
                for row in 0..<rowsPerTransaction {
                    let value = values(row, transaction: transaction)
                    try insert.execute(arguments: ["bench-0", "hand-\(transaction)-\(row)", value.tag, value.date, value.date, "bench", value.title, value.rank, value.score])
                }
            }
        }
        return Double(transactions * rowsPerTransaction) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    #if PostgreSQL
    /// Rows a second inserted through PostgresNIO on one connection, `rowsPerTransaction` to a
    /// transaction in one multi-row `INSERT` (`BEGIN`, `INSERT`, `COMMIT`).
    static func postgresRate(_ hand: HandClient, schema: String, transactions: Int, rowsPerTransaction: Int) async throws -> Double {
        try await hand.client.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \"\(schema)\""), logger: hand.logger)
        try await hand.client.query(PostgresQuery(unsafeSQL: """
            CREATE TABLE "\(schema)".notes (zone text COLLATE "C" NOT NULL, "recordName" text COLLATE "C" NOT NULL,
                "recordChangeTag" text, "creationDate" double precision, "modificationDate" double precision, creator text,
                title text, rank bigint, score double precision, PRIMARY KEY (zone, "recordName"))
            """), logger: hand.logger)
        let width = 2 + columns.count
        let tuples = (0..<rowsPerTransaction).map { row in
            "(" + (1...width).map { "$\(row * width + $0)" }.joined(separator: ", ") + ")"
        }.joined(separator: ", ")
        let sql = "INSERT INTO \"\(schema)\".notes VALUES \(tuples)"
        let start = DispatchTime.now().uptimeNanoseconds
        try await hand.client.withConnection { connection in
            for transaction in 0..<transactions {
                var arguments: [SQLValue] = []
                for row in 0..<rowsPerTransaction {
                    let value = values(row, transaction: transaction)
                    arguments += [.text("bench-0"), .text("hand-\(transaction)-\(row)"), .text(value.tag), .real(value.date), .real(value.date),
                                  .text("bench"), .text(value.title), .integer(value.rank), .real(value.score)]
                }
                try await connection.query("BEGIN", logger: hand.logger)
                try await connection.query(HandClient.query(sql, arguments), logger: hand.logger)
                try await connection.query("COMMIT", logger: hand.logger)
            }
        }
        return Double(transactions * rowsPerTransaction) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// A server setting as `SHOW` prints it.
    static func setting(_ name: String, _ hand: HandClient) async throws -> String {
        let rows = try await hand.client.query(PostgresQuery(unsafeSQL: "SHOW \(name)"), logger: hand.logger)
        for try await value in rows.decode(String.self) { return value }
        return "unknown"
    }
    #endif
}

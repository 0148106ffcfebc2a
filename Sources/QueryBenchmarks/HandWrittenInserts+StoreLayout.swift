import Foundation
import GRDB
#if PostgreSQL
import PostgresNIO
@_spi(StorageEngine) import RecordStoreSQL
#endif

extension HandWrittenInserts {
    /// Rows a second inserted through GRDB, `rowsPerTransaction` to a transaction, into the
    /// layout the SQLite store keeps for the same records in development mode
    /// (`store-layout-notes.sql`): each row with its five field indexes, its full-text entry and
    /// its registry entry, and each transaction's change-log row and zone position, as the store
    /// writes them. Beside ``sqliteRate(path:transactions:rowsPerTransaction:)`` (one table, its
    /// key alone), it shows what the store's indexes cost apart from the store's own code.
    static func sqliteStoreLayoutRate(path: String, transactions: Int, rowsPerTransaction: Int) async throws -> Double {
        let queue = try sqliteQueue(path: path)
        try await queue.write { db in try db.execute(sql: EmbeddedFiles.storeLayoutNotesSql) }
        let start = DispatchTime.now().uptimeNanoseconds
        for transaction in 0..<transactions {
            try await queue.write { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)")
                let register = try db.cachedStatement(sql: "INSERT OR REPLACE INTO registry (zone, recordName, recordType, position) VALUES (?, ?, 'Note', ?)")
                let index = try db.cachedStatement(sql: "INSERT INTO notes_text (rowid, body) VALUES (?, ?)")
                let position = Int64(transaction + 1)
                var names: [String] = []
                for row in 0..<rowsPerTransaction {
                    let value = values(row, transaction: transaction)
                    let name = "hand-\(transaction)-\(row)"
                    names.append(name)
                    try insert.execute(arguments: ["bench-0", name, value.date, value.date, value.tag, "bench", "bench", value.rank, value.score, value.title, value.title, value.title])
                    try index.execute(arguments: [db.lastInsertedRowID, value.title])
                    try register.execute(arguments: ["bench-0", name, position])
                }
                try db.execute(sql: "UPDATE zones SET position = ? WHERE name = 'bench-0'", arguments: [position])
                try db.execute(sql: "INSERT INTO changes (changes) VALUES (?)", arguments: [Data(names.joined(separator: "\n").utf8)])
            }
        }
        return Double(transactions * rowsPerTransaction) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    #if PostgreSQL
    /// Rows a second inserted through PostgresNIO on one connection, `rowsPerTransaction` to a
    /// transaction, into the layout the PostgreSQL store keeps for the same records in
    /// development mode (`store-layout-notes-postgres.sql`, in `schema`): each transaction
    /// registers its rows at a position taken from its transaction ID (one multi-row `INSERT`),
    /// inserts them with their five field indexes and full-text vector (another), and moves its
    /// zone's position (an `UPDATE`), between `BEGIN` and `COMMIT`.
    static func postgresStoreLayoutRate(_ hand: HandClient, schema: String, transactions: Int, rowsPerTransaction: Int) async throws -> Double {
        let register = "INSERT INTO registry (zone, \"recordName\", \"recordType\", position) SELECT zone, name, 'Note', txid_current() FROM unnest($1::text[], $2::text[]) AS r(zone, name)"
        let width = 14
        let tuples = (0..<rowsPerTransaction).map { row in
            "(" + (1...width).map { "$\(row * width + $0)" + ($0 == width ? "::tsvector" : "") }.joined(separator: ", ") + ")"
        }.joined(separator: ", ")
        let insert = """
            INSERT INTO notes ("creationDate", "modificationDate", rank, score, zone, "recordName", "recordChangeTag", creator, "lastModifier",
                title, "titleRaw", "titleCaseless", "titleFolded", "fullText") VALUES \(tuples)
            """
        let start = try await hand.client.withConnection { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \"\(schema)\""), logger: hand.logger)
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \"\(schema)\""), logger: hand.logger)
            // PostgreSQL prepares one statement at a time.
            for statement in EmbeddedFiles.storeLayoutNotesPostgresSql.components(separatedBy: ";\n") {
                let code = statement.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")
                if !code.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { try await connection.query(PostgresQuery(unsafeSQL: code), logger: hand.logger) }
            }
            let start = DispatchTime.now().uptimeNanoseconds
            for transaction in 0..<transactions {
                var names: [String] = [], arguments: [SQLValue] = []
                for row in 0..<rowsPerTransaction {
                    let value = values(row, transaction: transaction)
                    let name = "hand-\(transaction)-\(row)"
                    names.append(name)
                    let words = value.title.split(separator: " ").map { "'\($0)'" }.joined(separator: " ")
                    arguments += [.real(value.date), .real(value.date), .integer(value.rank), .real(value.score), .text("bench-0"), .text(name), .text(value.tag),
                                  .text("bench"), .text("bench"), .text(value.title), .null, .text(value.title), .text(value.title), .text(words)]
                }
                try await connection.query("BEGIN", logger: hand.logger)
                try await connection.query(HandClient.query(register, [.text("{" + Array(repeating: "bench-0", count: rowsPerTransaction).joined(separator: ",") + "}"),
                                                                       .text("{" + names.joined(separator: ",") + "}")]), logger: hand.logger)
                try await connection.query(HandClient.query(insert, arguments), logger: hand.logger)
                try await connection.query("UPDATE zones SET position = txid_current() WHERE name = 'bench-0'", logger: hand.logger)
                try await connection.query("COMMIT", logger: hand.logger)
            }
            try await connection.query("RESET search_path", logger: hand.logger)
            return start
        }
        return Double(transactions * rowsPerTransaction) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    #endif
}

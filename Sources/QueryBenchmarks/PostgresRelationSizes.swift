// Part of the PostgreSQL trait.
#if PostgreSQL
import Foundation
import PostgresNIO

/// The sizes of a store's tables on PostgreSQL, and of the same layout written by hand.
extension HandClient {
    /// The suffix of the hand-written copies ``sameLayoutBytes(schema:)`` makes.
    static let layoutCopySuffix = "$hand$layout"

    /// The store's tables in `schema` (every ordinary table but the benchmark's hand-written
    /// copies, whose names hold `$hand$`).
    func storeTables(schema: String) async throws -> [String] {
        let rows = try await client.query(PostgresQuery(unsafeSQL: """
            SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = '\(schema)' AND c.relkind = 'r' AND position('$hand$' IN c.relname) = 0 ORDER BY 1
            """), logger: logger)
        var tables: [String] = []
        for try await name in rows.decode(String.self) { tables.append(name) }
        return tables
    }

    /// The bytes of these tables with their indexes and TOAST: the sum of `pg_total_relation_size`.
    func totalRelationBytes(_ tables: [String]) async throws -> Int64 {
        guard !tables.isEmpty else { return 0 }
        let list = tables.map { "to_regclass('\"\($0)\"')" }.joined(separator: ", ")
        let rows = try await client.query(PostgresQuery(unsafeSQL: """
            SELECT coalesce(sum(pg_total_relation_size(relation)), 0)::bigint FROM unnest(ARRAY[\(list)]) AS relation
            """), logger: logger)
        var bytes: Int64 = 0
        for try await total in rows.decode(Int64.self) { bytes = total }
        return bytes
    }

    /// The bytes of the same layout written by hand: each of the store's tables made again from
    /// its own definition (`CREATE TABLE … (LIKE … INCLUDING ALL)`: the same columns, indexes and
    /// defaults), filled with its rows by one `INSERT … SELECT`, measured, then dropped.
    func sameLayoutBytes(schema: String) async throws -> Int64 {
        let tables = try await storeTables(schema: schema)
        var copies: [String] = []
        for table in tables {
            let copy = table + Self.layoutCopySuffix
            try await client.query(PostgresQuery(unsafeSQL: "CREATE TABLE \"\(copy)\" (LIKE \"\(table)\" INCLUDING ALL)"), logger: logger)
            try await client.query(PostgresQuery(unsafeSQL: "INSERT INTO \"\(copy)\" OVERRIDING SYSTEM VALUE SELECT * FROM \"\(table)\""), logger: logger)
            copies.append(copy)
        }
        let bytes = try await totalRelationBytes(copies)
        for copy in copies { try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE \"\(copy)\""), logger: logger) }
        return bytes
    }
}
#endif

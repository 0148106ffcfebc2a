// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
import RecordStoreSQL

/// Assets in the store's `$assets` table: one row an asset, named `<sha256 hex>-<size>`, with
/// its bytes (`bytea`) and, for an upload no saved record references yet, when it was put
/// (`pending_since`, seconds since 1970; NULL once kept). Every server over the database sees
/// the same assets, as it sees the same records.
///
/// ```swift
/// try await PostgresAssetStorage(connection: sql).createTable()
/// ```
struct PostgresAssetStorage {
    let connection: PostgresSQLConnection

    static let table = PostgresDialect.quote("$assets")

    /// The row name of an asset.
    static func name(_ asset: Asset) -> SQLValue { .text("\(asset.checksumHex)-\(asset.size)") }

    /// Creates the table when missing (at the store's opening, under its lock).
    func createTable() async throws {
        try await connection.execute(SQLStatement(sql: """
            CREATE TABLE IF NOT EXISTS \(Self.table) (name text PRIMARY KEY, size bigint NOT NULL, bytes bytea NOT NULL, pending_since double precision)
            """))
        try await connection.execute(SQLStatement(
            sql: "CREATE INDEX IF NOT EXISTS \(PostgresDialect.quote("$assets_pending")) ON \(Self.table) (pending_since) WHERE pending_since IS NOT NULL"))
    }

    /// Keeps an asset's bytes; an asset already kept stays kept.
    func put(_ asset: Asset, bytes: Data, pendingSince: Date?) async throws {
        try await connection.execute(SQLStatement(
            sql: """
                INSERT INTO \(Self.table) (name, size, bytes, pending_since) VALUES ($1, $2, $3, $4) \
                ON CONFLICT (name) DO UPDATE SET pending_since = CASE WHEN \(Self.table).pending_since IS NULL THEN NULL ELSE excluded.pending_since END
                """,
            arguments: [Self.name(asset), .integer(asset.size), .blob(bytes), pendingSince.map { .real($0.timeIntervalSince1970) } ?? .null]))
    }

    /// An asset's bytes, or nil.
    func bytes(_ asset: Asset) async throws -> Data? {
        var found: Data?
        try await connection.forEachRow(SQLStatement(sql: "SELECT bytes FROM \(Self.table) WHERE name = $1", arguments: [Self.name(asset)])) { row in
            if case .blob(let bytes) = row.value(at: 0) { found = bytes }
            return false
        }
        return found
    }

    /// Marks an asset kept; false when it is not stored.
    func keep(_ asset: Asset) async throws -> Bool {
        var found = false
        try await connection.forEachRow(SQLStatement(
            sql: "UPDATE \(Self.table) SET pending_since = NULL WHERE name = $1 RETURNING 1", arguments: [Self.name(asset)])) { _ in
            found = true
            return false
        }
        return found
    }

    /// Removes the pending assets put before a date; how many.
    func removePending(before date: Date) async throws -> Int {
        var removed = 0
        try await connection.forEachRow(SQLStatement(
            sql: "DELETE FROM \(Self.table) WHERE pending_since < $1 RETURNING 1", arguments: [.real(date.timeIntervalSince1970)])) { _ in
            removed += 1
            return true
        }
        return removed
    }
}

/// The PostgreSQL engine keeps assets in the `$assets` table (``PostgresAssetStorage``).
extension PostgresEngine: AssetStorage {
    func putAsset(_ asset: Asset, bytes: Data, pending: Bool, date: Date) async throws(RecordStoreError) {
        try await write { connection in try await PostgresAssetStorage(connection: connection).put(asset, bytes: bytes, pendingSince: pending ? date : nil) }
    }

    func assetBytes(_ asset: Asset) async throws(RecordStoreError) -> Data? {
        try await read { connection in try await PostgresAssetStorage(connection: connection).bytes(asset) }
    }

    func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset] {
        try await write { connection in
            var missing: [Asset] = []
            for asset in assets {
                if try await !PostgresAssetStorage(connection: connection).keep(asset) { missing.append(asset) }
            }
            return missing
        }
    }

    func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        try await write { connection in try await PostgresAssetStorage(connection: connection).removePending(before: date) }
    }
}
#endif

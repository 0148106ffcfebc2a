// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Assets in the store's tables, so that every server over the database sees the same assets,
/// as it sees the same records:
///
/// | table | one row | columns |
/// |---|---|---|
/// | `$assets` | an asset, named `<sha256 hex>-<size>` | `size`; `chunks`, the key of its chunks; `pending_since`, for an upload no saved record references yet (seconds since 1970; NULL once kept) |
/// | `$asset_chunks` | a chunk of at most ``Asset/chunkSize`` bytes | `upload` (the key), `position` (0, 1, ...), `bytes`, `written` (seconds since 1970) |
/// | `$asset_claims` | a single-use upload that was used | `identifier`, `expires` |
///
/// An upload writes its chunks under a key of its own as they arrive, each in a statement of
/// its own, so that no connection is held while a client sends (``PostgresAssetWriter``); its
/// commit adds the `$assets` row that names them, or drops them when the same bytes are already
/// stored. A download reads one chunk a statement (``PostgresAssetReader``). Chunks are stored
/// uncompressed (`STORAGE EXTERNAL`): assets are mostly compressed files already.
///
/// Stores made before chunks kept an asset's bytes whole in `$assets.bytes`; the first opening
/// that finds no `$asset_chunks` table moves them into chunks.
///
/// ```swift
/// try await PostgresAssetStorage(connection: sql).createTables()
/// ```
struct PostgresAssetStorage {
    let connection: PostgresSQLConnection

    static let table = PostgresDialect.quote("$assets")
    static let chunksTable = PostgresDialect.quote("$asset_chunks")
    static let claimsTable = PostgresDialect.quote("$asset_claims")

    /// The row name of an asset.
    static func name(_ asset: Asset) -> SQLValue { .text("\(asset.checksumHex)-\(asset.size)") }

    /// Creates the tables when missing, and moves the bytes an older store kept whole into
    /// chunks (at the store's opening, under its lock).
    func createTables() async throws {
        try await connection.execute(SQLStatement(sql: """
            CREATE TABLE IF NOT EXISTS \(Self.table) (name text PRIMARY KEY, size bigint NOT NULL, bytes bytea, pending_since double precision, chunks text)
            """))
        try await connection.execute(SQLStatement(
            sql: "CREATE INDEX IF NOT EXISTS \(PostgresDialect.quote("$assets_pending")) ON \(Self.table) (pending_since) WHERE pending_since IS NOT NULL"))
        let chunksExist = try await connection.rowCount(SQLStatement(
            sql: "SELECT 1 WHERE to_regclass($1) IS NOT NULL", arguments: [.text(Self.chunksTable)])) > 0
        guard !chunksExist else { return }
        try await connection.execute(SQLStatement(sql: "ALTER TABLE \(Self.table) ALTER COLUMN bytes DROP NOT NULL, ADD COLUMN IF NOT EXISTS chunks text"))
        try await connection.execute(SQLStatement(sql: """
            CREATE TABLE \(Self.chunksTable) (upload text NOT NULL, position bigint NOT NULL, bytes bytea NOT NULL, written double precision NOT NULL, PRIMARY KEY (upload, position))
            """))
        try await connection.execute(SQLStatement(sql: "ALTER TABLE \(Self.chunksTable) ALTER COLUMN bytes SET STORAGE EXTERNAL"))
        try await connection.execute(SQLStatement(sql: "CREATE INDEX \(PostgresDialect.quote("$asset_chunks_written")) ON \(Self.chunksTable) (written)"))
        try await connection.execute(SQLStatement(sql: "CREATE INDEX \(PostgresDialect.quote("$assets_chunks")) ON \(Self.table) (chunks)"))
        try await connection.execute(SQLStatement(sql: "CREATE TABLE \(Self.claimsTable) (identifier text PRIMARY KEY, expires double precision NOT NULL)"))
        // The bytes older stores kept whole, cut into chunks.
        let size = Asset.chunkSize
        try await connection.execute(SQLStatement(sql: """
            INSERT INTO \(Self.chunksTable) (upload, position, bytes, written) \
            SELECT 'whole-' || name, part, substring(bytes FROM (part * \(size) + 1)::integer FOR \(size)), 0 \
            FROM \(Self.table), generate_series(0, (length(bytes) + \(size - 1)) / \(size) - 1) AS part WHERE bytes IS NOT NULL
            """))
        try await connection.execute(SQLStatement(sql: "UPDATE \(Self.table) SET chunks = 'whole-' || name, bytes = NULL WHERE bytes IS NOT NULL"))
    }

    /// Appends one chunk of an upload.
    func writeChunk(_ chunk: Data, upload: String, position: Int, date: Date) async throws {
        try await connection.execute(SQLStatement(
            sql: "INSERT INTO \(Self.chunksTable) (upload, position, bytes, written) VALUES ($1, $2, $3, $4)",
            arguments: [.text(upload), .integer(Int64(position)), .blob(chunk), .real(date.timeIntervalSince1970)]))
    }

    /// Files an upload's chunks as an asset (in a transaction): its row added, or, when the
    /// asset is already stored, its chunks dropped and the row dated or kept as a new put would.
    /// Fails when the upload's chunks are not all there (removed as abandoned meanwhile).
    func commit(_ asset: Asset, upload: String, chunkCount: Int, pendingSince: Date?) async throws {
        let stored = try await connection.rowCount(SQLStatement(
            sql: "SELECT 1 FROM \(Self.chunksTable) WHERE upload = $1", arguments: [.text(upload)]))
        guard stored == chunkCount else {
            throw RecordStoreError.storage("the upload of asset \(asset) lost \(chunkCount - stored) of its \(chunkCount) chunks (removed as abandoned); upload it again")
        }
        var kept: SQLValue = .null
        try await connection.forEachRow(SQLStatement(
            sql: """
                INSERT INTO \(Self.table) (name, size, pending_since, chunks) VALUES ($1, $2, $3, $4) \
                ON CONFLICT (name) DO UPDATE SET pending_since = CASE WHEN \(Self.table).pending_since IS NULL THEN NULL ELSE excluded.pending_since END \
                RETURNING chunks
                """,
            arguments: [Self.name(asset), .integer(asset.size), pendingSince.map { .real($0.timeIntervalSince1970) } ?? .null, .text(upload)])) { row in
            kept = row.value(at: 0)
            return false
        }
        if kept != .text(upload) { try await removeChunks(upload: upload) }
    }

    /// Removes an upload's chunks.
    func removeChunks(upload: String) async throws {
        try await connection.execute(SQLStatement(sql: "DELETE FROM \(Self.chunksTable) WHERE upload = $1", arguments: [.text(upload)]))
    }

    /// The key of an asset's chunks, or nil when it is not stored.
    func chunksKey(_ asset: Asset) async throws -> String? {
        var key: String?
        try await connection.forEachRow(SQLStatement(sql: "SELECT chunks FROM \(Self.table) WHERE name = $1", arguments: [Self.name(asset)])) { row in
            if case .text(let text) = row.value(at: 0) { key = text }
            return false
        }
        return key
    }

    /// One chunk of an asset, or nil past its last.
    func chunk(upload: String, position: Int) async throws -> Data? {
        var found: Data?
        try await connection.forEachRow(SQLStatement(
            sql: "SELECT bytes FROM \(Self.chunksTable) WHERE upload = $1 AND position = $2", arguments: [.text(upload), .integer(Int64(position))])) { row in
            if case .blob(let bytes) = row.value(at: 0) { found = bytes }
            return false
        }
        return found
    }

    /// Marks an asset kept; false when it is not stored.
    func keep(_ asset: Asset) async throws -> Bool {
        try await connection.rowCount(SQLStatement(
            sql: "UPDATE \(Self.table) SET pending_since = NULL WHERE name = $1 RETURNING 1", arguments: [Self.name(asset)])) > 0
    }

    /// Records a single-use upload's use; false when it was recorded before.
    func claim(_ identifier: String, expires: Date) async throws -> Bool {
        try await connection.rowCount(SQLStatement(
            sql: "INSERT INTO \(Self.claimsTable) (identifier, expires) VALUES ($1, $2) ON CONFLICT (identifier) DO NOTHING RETURNING 1",
            arguments: [.text(identifier), .real(expires.timeIntervalSince1970)])) > 0
    }

    /// Removes the pending assets put before a date with their chunks, the chunks of uploads
    /// abandoned before it and the claims expired before it; how many assets.
    func removePending(before date: Date) async throws -> Int {
        let time = SQLValue.real(date.timeIntervalSince1970)
        var removed = 0
        try await connection.forEachRow(SQLStatement(
            sql: """
                WITH gone AS (DELETE FROM \(Self.table) WHERE pending_since < $1 RETURNING chunks), \
                dropped AS (DELETE FROM \(Self.chunksTable) WHERE upload IN (SELECT chunks FROM gone)) \
                SELECT count(*) FROM gone
                """,
            arguments: [time])) { row in
            if case .integer(let count) = row.value(at: 0) { removed = Int(count) }
            return false
        }
        try await connection.execute(SQLStatement(
            sql: """
                DELETE FROM \(Self.chunksTable) AS chunk WHERE chunk.written < $1 \
                AND NOT EXISTS (SELECT 1 FROM \(Self.table) AS asset WHERE asset.chunks = chunk.upload)
                """,
            arguments: [time]))
        try await connection.execute(SQLStatement(sql: "DELETE FROM \(Self.claimsTable) WHERE expires < $1", arguments: [time]))
        return removed
    }
}

/// The PostgreSQL engine keeps assets in its tables (``PostgresAssetStorage``).
extension PostgresEngine: AssetStorage {
    func makeAssetWriter() async throws(RecordStoreError) -> any AssetWriter {
        try refuseWritesWhenReadOnly()
        return PostgresAssetWriter(engine: self)
    }

    func makeAssetReader(for asset: Asset) async throws(RecordStoreError) -> (any AssetReader)? {
        try await assetStatement { connection in try await PostgresAssetStorage(connection: connection).chunksKey(asset) }
            .map { PostgresAssetReader(engine: self, upload: $0) }
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

    func claimAssetUpload(_ identifier: String, expires: Date) async throws(RecordStoreError) -> Bool {
        try refuseWritesWhenReadOnly()
        return try await assetStatement { connection in try await PostgresAssetStorage(connection: connection).claim(identifier, expires: expires) }
    }

    func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int {
        try await write { connection in try await PostgresAssetStorage(connection: connection).removePending(before: date) }
    }

    /// Runs one asset statement on a leased connection, outside a transaction (a chunk written
    /// or read holds a connection for that statement only, never for a whole transfer).
    func assetStatement<T: Sendable>(_ body: @escaping @Sendable (PostgresSQLConnection) async throws -> T) async throws(RecordStoreError) -> T {
        do {
            return try await withConnection(body)
        } catch {
            throw storeError(error)
        }
    }
}
#endif

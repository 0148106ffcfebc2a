// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The store's metadata in `$metadata`: its identifier and cursor key (made once, kept for the
/// store's life, so a cursor one process made continues in another), the version of its layout
/// (``PostgresLayoutMigration``), and the ICU collation version its stored sort keys were made with.
struct PostgresStoreMetadata {
    let connection: PostgresSQLConnection

    private var table: String { PostgresDialect.quote(PostgresLayout.metadataTable) }

    /// The value stored under a name, nil when there is none.
    ///
    /// ```swift
    /// try await metadata.value(named: "collationVersion")   // the ICU version, as UTF-8
    /// ```
    func value(named name: String) async throws -> Data? {
        var value: Data?
        try await connection.forEachRow(SQLStatement(sql: "SELECT value FROM \(table) WHERE name = $1", arguments: [.text(name)])) { row in
            if case .blob(let stored) = row.value(at: 0) { value = stored }
            return false
        }
        return value
    }

    /// Stores a value under a name, replacing the one stored there; with `replacing: false`, a
    /// value already stored is kept.
    ///
    /// ```swift
    /// try await metadata.setValue(Data("1".utf8), named: "layoutVersion")
    /// ```
    func setValue(_ value: Data, named name: String, replacing: Bool = true) async throws {
        try await connection.execute(SQLStatement(
            sql: "INSERT INTO \(table) (name, value) VALUES ($1, $2) ON CONFLICT (name) DO \(replacing ? "UPDATE SET value = excluded.value" : "NOTHING")",
            arguments: [.text(name), .blob(value)]))
    }

    /// The store's identifier and cursor key, made on first use.
    func loadSecret() async throws -> StoreSecret {
        let fresh = StoreSecret.random()
        try await setValue(Data(fresh.storeIdentifier), named: "storeIdentifier", replacing: false)
        try await setValue(Data(fresh.key), named: "cursorKey", replacing: false)
        guard let secret = try await storedSecret() else {
            throw RecordStoreError.storage("the store's $metadata table holds a malformed cursor key")
        }
        return secret
    }

    /// The store's identifier and cursor key as stored, without making them: nil when it has
    /// none yet (a store opened read-only, on a standby, cannot make them).
    func storedSecret() async throws -> StoreSecret? {
        guard let identifier = try await value(named: "storeIdentifier"), let key = try await value(named: "cursorKey") else { return nil }
        guard identifier.count == 16, key.count == 32 else {
            throw RecordStoreError.storage("the store's $metadata table holds a malformed cursor key")
        }
        let ancestors = try await value(named: StoreAncestor.metadataName).map { StoreAncestor.decoded(Array($0)) } ?? []
        guard let ancestors else { throw RecordStoreError.storage("the store's $metadata table holds a malformed list of ancestors") }
        return StoreSecret(storeIdentifier: Array(identifier), key: Array(key), ancestors: ancestors)
    }

    /// The ICU collation version the stored sort keys were made with; nil before the store's
    /// first opening recorded one.
    func collationVersion() async throws -> String? {
        try await value(named: "collationVersion").map { String(decoding: $0, as: UTF8.self) }
    }

    /// Computes the sort-key columns again when they were made by another version of ICU's
    /// collation (a toolchain upgrade), and records the current version.
    func refreshSortKeys(catalog: SchemaCatalog) async throws {
        let current = UnicodeCollation.version
        let stored = try await collationVersion()
        guard stored != current else { return }
        if stored != nil {
            let storage = PostgresSchemaStorage(connection: connection)
            for schema in catalog.sorted {
                for field in schema.fields {
                    let keys = DerivedColumn.columns(for: field).filter(\.isSortKey)
                    if !keys.isEmpty { try await storage.fill(keys, of: field.name, in: schema.name) }
                }
            }
        }
        try await setValue(Data(current.utf8), named: "collationVersion")
    }

    /// Index builds a record type waits for, recorded in `$metadata` as `<kind><record type>`.
    enum IndexBuild: String, CaseIterable {
        /// A bulk load dropped the type's secondary indexes; its end builds them in one pass.
        case deferred = "deferredIndexes:"
        /// A schema change asked for indexes a populated table lacks; they are built with
        /// `CREATE INDEX CONCURRENTLY` once it committed.
        case pending = "pendingIndexes:"
    }

    /// Records that a record type's indexes wait for a build. Each mark holds a fresh token, so a
    /// builder that read an older one leaves the new mark in place (``clear(_:_:token:)``).
    func mark(_ build: IndexBuild, _ recordType: String) async throws {
        try await setValue(Data(UUID().uuidString.utf8), named: build.rawValue + recordType)
    }

    /// The token of a record type's mark, nil when its indexes wait for no such build.
    func indexBuild(_ build: IndexBuild, of recordType: String) async throws -> Data? {
        try await value(named: build.rawValue + recordType)
    }

    /// Moves a record type's marks to its new name (a migration renames the type).
    func moveMarks(of recordType: String, to name: String) async throws {
        for build in IndexBuild.allCases {
            try await connection.execute(SQLStatement(
                sql: "UPDATE \(table) SET name = $1 WHERE name = $2", arguments: [.text(build.rawValue + name), .text(build.rawValue + recordType)]))
        }
    }

    /// Every record type marked for a build, with its mark's token.
    func marked(_ build: IndexBuild) async throws -> [(recordType: String, token: Data)] {
        var marks: [(recordType: String, token: Data)] = []
        try await connection.forEachRow(SQLStatement(
            sql: "SELECT name, value FROM \(table) WHERE starts_with(name, $1) ORDER BY name", arguments: [.text(build.rawValue)])) { row in
            if case .text(let name) = row.value(at: 0), case .blob(let value) = row.value(at: 1) {
                marks.append((String(name.dropFirst(build.rawValue.count)), value))
            }
            return true
        }
        return marks
    }

    /// Removes a record type's mark; with a token, only when the mark still holds it. Whether
    /// a mark was removed.
    @discardableResult
    func clear(_ build: IndexBuild, _ recordType: String, token: Data? = nil) async throws -> Bool {
        var sql = "DELETE FROM \(table) WHERE name = $1"
        var arguments: [SQLValue] = [.text(build.rawValue + recordType)]
        if let token {
            sql += " AND value = $2"
            arguments.append(.blob(token))
        }
        return try await connection.rowCount(SQLStatement(sql: sql + " RETURNING 1", arguments: arguments)) > 0
    }
}
#endif

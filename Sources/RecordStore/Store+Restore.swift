@_spi(StorageEngine) import RecordStoreCore

extension Store {
    /// Restores a backup folder (``Store/backup(to:)``) into the store a location names, and
    /// opens it. The restored store answers every query, lookup, change token, cursor, change
    /// tag and asset download as the backed-up store did at the backup's moment, under a new
    /// store identity: change tokens the backed-up store made after the backup (it went on
    /// without this copy) are refused with ``RecordStoreError/changeTokenExpired(zone:)``, so a
    /// client reads again instead of missing changes; its earlier tokens, cursors and signed
    /// asset URLs are continued.
    ///
    /// Refused with ``RecordStoreError/backupRefused(_:)``: a folder that is not a whole backup;
    /// a location of another engine than the backup's (a SQLite backup restores into SQLite, a
    /// PostgreSQL backup into PostgreSQL); a location that already holds a store, unless
    /// `replacing` is true. Stop the servers of the location before replacing its store.
    ///
    /// ```swift
    /// let manifest = try await store.backup(to: "/backups/nightly")
    /// let restored = try await Store.restore(from: "/backups/nightly", to: "sqlite:/srv/restored.sqlite")
    /// ```
    public static func restore(
        from path: String, to location: String, replacing: Bool = false, mode: SchemaMode = .development
    ) async throws(RecordStoreError) -> Store {
        let parsed = try StoreLocation(location)
        let scheme = try registry.scheme(for: parsed)
        return try await restore(from: path, location: location, replacing: replacing, mode: mode) { () async throws(RecordStoreError) in
            try await scheme.open(parsed, nil)
        }
    }
}

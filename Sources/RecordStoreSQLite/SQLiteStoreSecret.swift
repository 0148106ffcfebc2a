import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The `$metadata` table: the store's random identifier and cursor-signing key, created
/// with the store and kept for its lifetime, so cursors stay valid across connections.
enum SQLiteStoreSecret {
    static let table = "$metadata"

    /// Reads the secret, writing a fresh one the first time.
    static func load(_ db: Database) throws -> StoreSecret {
        let quoted = SQLiteDialect.quote(table)
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(quoted) (name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL)")
        let fresh = StoreSecret.random()
        try db.execute(
            sql: "INSERT OR IGNORE INTO \(quoted) (name, value) VALUES ('storeIdentifier', ?), ('cursorKey', ?)",
            arguments: [Data(fresh.storeIdentifier), Data(fresh.key)])
        let metadata = SQLiteStoreMetadata(db: db)
        let identifier = try metadata.value(named: "storeIdentifier", as: Data.self) ?? Data()
        let key = try metadata.value(named: "cursorKey", as: Data.self) ?? Data()
        guard identifier.count == 16, key.count == 32 else {
            throw RecordStoreError.storage("the store's $metadata table holds a malformed cursor key")
        }
        let ancestors = try metadata.value(named: StoreAncestor.metadataName, as: Data.self).map { StoreAncestor.decoded(Array($0)) } ?? []
        guard let ancestors else { throw RecordStoreError.storage("the store's $metadata table holds a malformed list of ancestors") }
        return StoreSecret(storeIdentifier: Array(identifier), key: Array(key), ancestors: ancestors)
    }
}

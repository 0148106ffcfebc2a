import Foundation

/// Where an engine keeps assets' bytes, beside its records: the small contract each built-in
/// engine provides (memory: in memory; SQLite: files in a `<store>.assets/` folder next to the
/// store; PostgreSQL: the `$assets` table). ``Store`` finds it by a cast of its engine; an engine
/// that does not conform (one written for another purpose) answers every asset operation with
/// ``AssetError/unsupported(engine:)``.
///
/// Bytes are kept under their ``Asset`` (checksum and size), so the same file put twice is kept
/// once. A put is either kept (a library user's `store.saveAsset(_:)`) or *pending*: an upload that
/// no saved record references yet (the server's `assets/upload`). Saving a record that references a
/// pending asset first marks it kept (``keepAssets(_:)``); pending assets older than a time are
/// removed by ``removePendingAssets(uploadedBefore:)``. Kept assets stay until removed.
///
/// ```swift
/// @_spi(StorageEngine) import RecordStoreCore
///
/// extension MyEngine: AssetStorage { ... }
/// ```
@_spi(StorageEngine) public protocol AssetStorage: Sendable {
    /// Keeps `bytes` (whose checksum and size the caller checked to be `asset`'s). `pending`: an
    /// upload no record references yet, dated `date`; bytes already kept stay kept.
    func putAsset(_ asset: Asset, bytes: Data, pending: Bool, date: Date) async throws(RecordStoreError)
    /// The bytes kept for an asset, or nil.
    func assetBytes(_ asset: Asset) async throws(RecordStoreError) -> Data?
    /// Marks assets kept (no longer pending); returns those whose bytes are not stored.
    func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset]
    /// Removes the pending assets put before `date`; returns how many.
    func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int
}

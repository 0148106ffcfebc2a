import Foundation

/// Where an engine keeps assets' bytes, beside its records: the small contract each built-in
/// engine provides (memory: in memory; SQLite: files in a `<store>.assets/` folder next to the
/// store; PostgreSQL: the `$assets` and `$asset_chunks` tables). ``Store`` finds it by a cast of
/// its engine; an engine that does not conform (one written for another purpose) answers every
/// asset operation with ``AssetError/unsupported(engine:)``.
///
/// Bytes move in chunks of at most ``Asset/chunkSize`` bytes, never whole, so that the memory a
/// transfer costs does not grow with the asset: a new asset is written through an
/// ``AssetWriter`` as its bytes arrive, before its checksum is known, and filed under its
/// ``Asset`` (checksum and size) at the end, so the same file put twice is kept once; a stored
/// one is read through an ``AssetReader``. The store checksums the bytes and counts them
/// (``AssetUpload``); the engine only keeps them.
///
/// An asset is either kept (a library user's `store.saveAsset(_:)`) or *pending*: an upload that
/// no saved record references yet (the server's `assets/upload`). Saving a record that
/// references a pending asset first marks it kept (``keepAssets(_:)``); pending assets older
/// than a time are removed by ``removePendingAssets(uploadedBefore:)``, with the writes that
/// were never finished and the expired single-use claims (``claimAssetUpload(_:expires:)``).
/// Kept assets stay until removed.
///
/// ```swift
/// @_spi(StorageEngine) import RecordStoreCore
///
/// extension MyEngine: AssetStorage { ... }
/// ```
@_spi(StorageEngine) public protocol AssetStorage: Sendable {
    /// A writer for a new asset's bytes (``AssetWriter``), which it keeps apart until
    /// ``AssetWriter/commit(as:pending:date:)`` files them.
    func makeAssetWriter() async throws(RecordStoreError) -> any AssetWriter
    /// A reader of an asset's bytes from their start, or nil when none are stored.
    func makeAssetReader(for asset: Asset) async throws(RecordStoreError) -> (any AssetReader)?
    /// Marks assets kept (no longer pending); returns those whose bytes are not stored.
    func keepAssets(_ assets: [Asset]) async throws(RecordStoreError) -> [Asset]
    /// Records that the single-use upload `identifier` (letters, digits, `-` and `_`) was used,
    /// remembered at least until `expires`; false when it was used before. Every process over
    /// the store sees the same claims.
    func claimAssetUpload(_ identifier: String, expires: Date) async throws(RecordStoreError) -> Bool
    /// Removes the pending assets put before `date`, the writes begun before it and never
    /// committed, and the claims that expired before it; returns how many pending assets.
    func removePendingAssets(uploadedBefore date: Date) async throws(RecordStoreError) -> Int
}

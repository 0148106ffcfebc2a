import Foundation

/// A new asset's bytes on their way into an engine's ``AssetStorage``, chunk by chunk, kept
/// apart (a temporary file, staging rows) until ``commit(as:pending:date:)`` files them under
/// their checksum. The store calls one writer from one task, in order: ``write(_:)`` any number
/// of times, then either ``commit(as:pending:date:)`` or ``discard()``.
///
/// ```swift
/// let writer = try await storage.makeAssetWriter()
/// try await writer.write(chunk)
/// try await writer.commit(as: asset, pending: true, date: Date())
/// ```
@_spi(StorageEngine) public protocol AssetWriter: Sendable {
    /// Appends the next chunk of the asset (at most ``Asset/chunkSize`` bytes, never empty).
    func write(_ chunk: Data) async throws(RecordStoreError)
    /// Files the bytes written as `asset` (the store checked its checksum and size). `pending`:
    /// an upload no record references yet, dated `date`. An asset already stored stays as it
    /// is (a kept one stays kept; a pending one takes the new date, or is kept when `pending` is
    /// false), and the bytes written are dropped.
    func commit(as asset: Asset, pending: Bool, date: Date) async throws(RecordStoreError)
    /// Drops the bytes written (a transfer that failed or was refused). Never throws: what it
    /// cannot remove, ``AssetStorage/removePendingAssets(uploadedBefore:)`` removes later.
    func discard() async
}

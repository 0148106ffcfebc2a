import Foundation

/// A stored asset's bytes on their way out of an engine's ``AssetStorage``, chunk by chunk from
/// the start. The store calls one reader from one task; the reader releases what it holds (an
/// open file) when it is released.
///
/// ```swift
/// guard let reader = try await storage.makeAssetReader(for: asset) else { return }
/// while let chunk = try await reader.next() { send(chunk) }
/// ```
@_spi(StorageEngine) public protocol AssetReader: Sendable {
    /// The next chunk (at most ``Asset/chunkSize`` bytes, never empty), or nil after the last.
    func next() async throws(RecordStoreError) -> Data?
}

import Foundation

/// An asset being written as its bytes arrive (a file read from the network, or from disk), made
/// by ``Store/beginAsset(maximumSize:)``: ``write(_:)`` takes bytes in pieces of any size,
/// checksums and counts them, and passes them to the engine's asset storage in chunks of
/// ``Asset/chunkSize``; ``finish(pending:date:)`` files them as an ``Asset``. An upload holds at
/// most one chunk of the asset, whatever its size.
///
/// A failure of ``write(_:)`` or ``finish(pending:date:)`` (more bytes than the upload's
/// ``maximumSize``, the engine failing) drops what was written; so does ``cancel()``, for a
/// caller whose source of bytes failed. One task uses an upload, from its start to its end.
///
/// ```swift
/// let upload = try await store.beginAsset(maximumSize: 50 << 20)
/// for try await piece in pieces { try await upload.write(piece) }
/// let asset = try await upload.finish()
/// ```
public final class AssetUpload {
    /// The engine's writer of the bytes.
    private let writer: any AssetWriter
    /// The most bytes the asset may have (nil: no limit).
    public let maximumSize: Int64?
    /// The bytes written so far.
    public private(set) var size: Int64 = 0
    private var hasher = SHA256Digest.Hasher()
    /// The bytes not yet passed to the writer: fewer than a chunk.
    private var pendingChunk = Data()
    /// Whether bytes may still be written (not yet finished, cancelled or failed).
    private var isOpen = true

    init(writer: any AssetWriter, maximumSize: Int64?) {
        self.writer = writer
        self.maximumSize = maximumSize
        pendingChunk.reserveCapacity(Asset.chunkSize)
    }

    /// Appends bytes to the asset; ``AssetError/tooLarge(size:limit:)`` once they exceed
    /// ``maximumSize`` (nothing is kept then).
    ///
    /// ```swift
    /// try await upload.write(Data("hello".utf8))
    /// ```
    public func write<Bytes: Collection>(_ bytes: Bytes) async throws(AssetError) where Bytes.Element == UInt8 {
        try checkOpen()
        size += Int64(bytes.count)
        if let maximumSize, size > maximumSize {
            await cancel()
            throw .tooLarge(size: Int(clamping: size), limit: Int(clamping: maximumSize))
        }
        hasher.update(bytes)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let end = bytes.index(index, offsetBy: Asset.chunkSize - pendingChunk.count, limitedBy: bytes.endIndex) ?? bytes.endIndex
            pendingChunk.append(contentsOf: bytes[index..<end])
            index = end
            if pendingChunk.count == Asset.chunkSize { try await passPendingChunk() }
        }
    }

    /// Files the bytes written as an asset and returns it. `pending`: an upload no saved record
    /// references yet, removed after a time unless a record's save keeps it
    /// (``Store/keepAssets(_:)``); otherwise kept for good.
    ///
    /// ```swift
    /// let asset = try await upload.finish()
    /// ```
    public func finish(pending: Bool = false, date: Date = Date()) async throws(AssetError) -> Asset {
        try checkOpen()
        if !pendingChunk.isEmpty { try await passPendingChunk() }
        isOpen = false
        let asset = Asset(digest: hasher.finalize(), size: size)
        do {
            try await writer.commit(as: asset, pending: pending, date: date)
        } catch {
            await writer.discard()
            throw .store(error)
        }
        return asset
    }

    /// Drops what was written; nothing is kept. Does nothing once finished or cancelled.
    ///
    /// ```swift
    /// await upload.cancel()
    /// ```
    public func cancel() async {
        guard isOpen else { return }
        isOpen = false
        pendingChunk = Data()
        await writer.discard()
    }

    /// Passes the pending chunk to the writer; a failure drops the upload.
    private func passPendingChunk() async throws(AssetError) {
        let chunk = pendingChunk
        pendingChunk = Data()
        pendingChunk.reserveCapacity(Asset.chunkSize)
        do {
            try await writer.write(chunk)
        } catch {
            await cancel()
            throw .store(error)
        }
    }

    private func checkOpen() throws(AssetError) {
        guard isOpen else { throw .uploadClosed }
    }
}

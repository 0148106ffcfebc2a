import Foundation

/// Assets: files kept beside the records (``Asset``), on engines that provide ``AssetStorage``
/// (memory, SQLite, PostgreSQL).
extension Store {
    /// The engine's asset storage, or ``AssetError/unsupported(engine:)``.
    package func assetStorage() throws(AssetError) -> any AssetStorage {
        guard let storage = engine as? any AssetStorage else { throw .unsupported(engine: engine.name) }
        return storage
    }

    /// Keeps some bytes as an asset and returns it, to put in a record field (``Asset/value``).
    /// The bytes stay until the store is removed; putting the same bytes again keeps them once.
    ///
    /// ```swift
    /// let asset = try store.saveAsset(Data("hello".utf8))
    /// record["attachment"] = asset.value
    /// ```
    public func saveAsset(_ bytes: Data) throws(AssetError) -> Asset {
        try waitForAsset { () async throws(AssetError) in try await self.saveAsset(bytes) }
    }

    /// Keeps some bytes as an asset and returns it (async).
    ///
    /// ```swift
    /// let asset = try await store.saveAsset(Data("hello".utf8))
    /// ```
    public func saveAsset(_ bytes: Data) async throws(AssetError) -> Asset {
        let upload = try await beginAsset()
        try await upload.write(bytes)
        return try await upload.finish()
    }

    /// Starts an asset whose bytes are given as they arrive (``AssetUpload``), so that a large
    /// file never has to be held whole; at most `maximumSize` bytes (nil: no limit).
    ///
    /// ```swift
    /// let upload = try await store.beginAsset(maximumSize: 50 << 20)
    /// let file = try FileHandle(forReadingFrom: url)
    /// while let piece = try file.read(upToCount: 1 << 20), !piece.isEmpty { try await upload.write(piece) }
    /// let asset = try await upload.finish()
    /// ```
    public func beginAsset(maximumSize: Int64? = nil) async throws(AssetError) -> AssetUpload {
        let storage = try assetStorage()
        do {
            return AssetUpload(writer: try await storage.makeAssetWriter(), maximumSize: maximumSize)
        } catch {
            throw .store(error)
        }
    }

    /// The bytes of an asset; ``AssetError/notFound(_:)`` when none are stored.
    ///
    /// ```swift
    /// let bytes = try store.assetData(Asset(record["attachment"])!)
    /// ```
    public func assetData(_ asset: Asset) throws(AssetError) -> Data {
        try waitForAsset { () async throws(AssetError) in try await self.assetData(asset) }
    }

    /// The bytes of an asset (async), whole; ``AssetError/notFound(_:)`` when none are stored.
    /// ``assetChunks(_:)`` reads them a chunk at a time.
    ///
    /// ```swift
    /// let bytes = try await store.assetData(asset)
    /// ```
    public func assetData(_ asset: Asset) async throws(AssetError) -> Data {
        var bytes = Data()
        bytes.reserveCapacity(Int(clamping: asset.size))
        for try await chunk in try await assetChunks(asset) { bytes.append(chunk) }
        return bytes
    }

    /// The bytes of an asset, read a chunk at a time as they are asked for (``AssetChunks``);
    /// ``AssetError/notFound(_:)`` when none are stored.
    ///
    /// ```swift
    /// for try await chunk in try await store.assetChunks(asset) { try await writer.write(chunk) }
    /// ```
    public func assetChunks(_ asset: Asset) async throws(AssetError) -> AssetChunks {
        let storage = try assetStorage()
        let reader: (any AssetReader)?
        do {
            reader = try await storage.makeAssetReader(for: asset)
        } catch {
            throw .store(error)
        }
        guard let reader else { throw .notFound(asset) }
        return AssetChunks(asset: asset, reader: reader)
    }

    /// Records that the single-use upload `identifier` was used (the server's upload URLs),
    /// remembered at least until `expires`, by every process over the store; false when it was
    /// used before. An identifier is 1 to 64 letters, digits, `-` and `_`.
    ///
    /// ```swift
    /// guard try await store.claimAssetUpload(identifier, expires: expiry) else { throw refused }
    /// ```
    package func claimAssetUpload(_ identifier: String, expires: Date) async throws(AssetError) -> Bool {
        let storage = try assetStorage()
        guard (1...64).contains(identifier.utf8.count),
              identifier.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { throw .store(.storage("an upload's identifier is 1 to 64 letters, digits, '-' and '_', not '\(identifier.prefix(80))'")) }
        do {
            return try await storage.claimAssetUpload(identifier, expires: expires)
        } catch {
            throw .store(error)
        }
    }

    /// Marks assets as referenced by a record, so that they are no longer removed as unreferenced
    /// uploads; throws ``AssetError/notFound(_:)`` for the first one not stored (after marking the others).
    ///
    /// ```swift
    /// try await store.keepAssets([asset])
    /// ```
    public func keepAssets(_ assets: [Asset]) async throws(AssetError) {
        guard !assets.isEmpty else { return }
        let storage = try assetStorage()
        let missing: [Asset]
        do {
            missing = try await storage.keepAssets(assets)
        } catch {
            throw .store(error)
        }
        if let first = missing.first { throw .notFound(first) }
    }

    /// Removes the uploads that no saved record referenced (put as pending, never kept) and that
    /// were put before `date`; returns how many were removed. Uploads begun before `date` and
    /// never finished, and single-use upload claims that expired before it, go too. The server
    /// calls it with its ``unreferencedAssetLifetime`` (24 hours unless configured).
    ///
    /// ```swift
    /// let removed = try await store.removeUnreferencedAssets(uploadedBefore: Date().addingTimeInterval(-86_400))
    /// ```
    public func removeUnreferencedAssets(uploadedBefore date: Date) async throws(AssetError) -> Int {
        let storage = try assetStorage()
        do {
            return try await storage.removePendingAssets(uploadedBefore: date)
        } catch {
            throw .store(error)
        }
    }

    /// How long an upload may stay unreferenced before the server removes it: 24 hours.
    public static let unreferencedAssetLifetime: TimeInterval = 24 * 60 * 60

    /// The synchronous form of an asset operation (``synchronously(_:)`` for ``AssetError``).
    private func waitForAsset<T>(_ operation: () async throws(AssetError) -> T) throws(AssetError) -> T {
        guard engine.answersSynchronously else { throw .store(.synchronousAccessUnavailable(engine: engine.name)) }
        return try SynchronousCall.wait(operation)
    }
}

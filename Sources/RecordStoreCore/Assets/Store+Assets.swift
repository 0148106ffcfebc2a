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
        let asset = Asset(bytes: bytes)
        try await putAsset(asset, bytes: bytes, pending: false)
        return asset
    }

    /// Keeps bytes whose checksum the caller computed (``Asset/init(bytes:)``), as an upload no
    /// record references yet (`pending`, removed by ``removeUnreferencedAssets(uploadedBefore:)``)
    /// or for good.
    package func putAsset(_ asset: Asset, bytes: Data, pending: Bool, date: Date = Date()) async throws(AssetError) {
        let storage = try assetStorage()
        do {
            try await storage.putAsset(asset, bytes: bytes, pending: pending, date: date)
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

    /// The bytes of an asset (async); ``AssetError/notFound(_:)`` when none are stored.
    ///
    /// ```swift
    /// let bytes = try await store.assetData(asset)
    /// ```
    public func assetData(_ asset: Asset) async throws(AssetError) -> Data {
        let storage = try assetStorage()
        let bytes: Data?
        do {
            bytes = try await storage.assetBytes(asset)
        } catch {
            throw .store(error)
        }
        guard let bytes else { throw .notFound(asset) }
        return bytes
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
    /// were put before `date`; returns how many were removed. The server calls it with its
    /// ``unreferencedAssetLifetime`` (24 hours unless configured).
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

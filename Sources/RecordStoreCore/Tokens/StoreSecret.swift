/// A store's identity and the key it signs its cursors with: a random 16-byte store
/// identifier and a random 256-bit HMAC key. SQLite keeps them in the `$metadata` table (so
/// cursors outlive a connection), the memory engine per instance.
///
/// ```swift
/// let secret = StoreSecret.random()
/// secret.storeIdentifier.count   // 16
/// ```
@_spi(StorageEngine) public struct StoreSecret: Sendable, Hashable {
    /// Written into every cursor; a cursor from another store is refused by it.
    @_spi(StorageEngine) public var storeIdentifier: [UInt8]
    /// The HMAC-SHA256 key of cursor signatures.
    @_spi(StorageEngine) public var key: [UInt8]
    /// The stores this one was restored from (``StoreAncestor``); empty for a store never restored.
    @_spi(StorageEngine) public var ancestors: [StoreAncestor]

    /// A secret with the given bytes (16 for the identifier, 32 for the key).
    @_spi(StorageEngine) public init(storeIdentifier: [UInt8], key: [UInt8], ancestors: [StoreAncestor] = []) {
        self.storeIdentifier = storeIdentifier
        self.key = key
        self.ancestors = ancestors
    }

    /// A fresh random secret.
    @_spi(StorageEngine) public static func random() -> StoreSecret {
        var generator = SystemRandomNumberGenerator()
        return StoreSecret(
            storeIdentifier: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) },
            key: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

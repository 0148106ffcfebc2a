/// A store this one was restored from, and how far its history reached in the backup: the
/// restored store continues the tokens, cursors and signed URLs that ancestor made up to that
/// point, and refuses its later change tokens (the ancestor went on without this copy).
///
/// A restored store keeps the list in `$metadata` under ``metadataName`` (``encoded(_:)``): 24
/// bytes an ancestor, its 16-byte identifier then the position as 8 bytes big-endian. A backup
/// of a restored store carries the list, and its restore adds one more.
///
/// ```swift
/// let ancestor = StoreAncestor(storeIdentifier: secret.storeIdentifier, lastPosition: 42)
/// StoreAncestor.decoded(StoreAncestor.encoded([ancestor]))   // [ancestor]
/// ```
@_spi(StorageEngine) public struct StoreAncestor: Sendable, Hashable {
    /// The `$metadata` name the list is stored under.
    @_spi(StorageEngine) public static let metadataName = "ancestors"

    /// The ancestor's store identifier (``StoreSecret/storeIdentifier``).
    @_spi(StorageEngine) public var storeIdentifier: [UInt8]
    /// The ancestor's history position in the backup: its change tokens up to it are continued.
    @_spi(StorageEngine) public var lastPosition: Int64

    @_spi(StorageEngine) public init(storeIdentifier: [UInt8], lastPosition: Int64) {
        self.storeIdentifier = storeIdentifier
        self.lastPosition = lastPosition
    }

    /// The stored form of a list of ancestors.
    @_spi(StorageEngine) public static func encoded(_ ancestors: [StoreAncestor]) -> [UInt8] {
        var bytes: [UInt8] = []
        for ancestor in ancestors {
            bytes += ancestor.storeIdentifier
            withUnsafeBytes(of: ancestor.lastPosition.bigEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// The list a stored form holds; nil when it is malformed (not a whole number of entries).
    @_spi(StorageEngine) public static func decoded(_ bytes: [UInt8]) -> [StoreAncestor]? {
        guard bytes.count % 24 == 0 else { return nil }
        return stride(from: 0, to: bytes.count, by: 24).map { start in
            let position = bytes[start + 16..<start + 24].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            return StoreAncestor(storeIdentifier: Array(bytes[start..<start + 16]), lastPosition: position)
        }
    }
}

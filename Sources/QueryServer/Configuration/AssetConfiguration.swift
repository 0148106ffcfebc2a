// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import RecordStore

/// How the server takes and serves assets (``ServerConfiguration/assets``).
///
/// ```swift
/// var configuration = ServerConfiguration(port: 8080)
/// configuration.assets.maximumSize = 10 << 20   // 10 MiB a file
/// ```
public struct AssetConfiguration: Sendable {
    /// The largest file an upload URL takes, in bytes: 50 MiB, CloudKit's limit, unless given.
    public var maximumSize: Int
    /// Seconds an upload URL and a `downloadURL` stay valid after the server made them: one hour
    /// unless given. An upload URL takes one file; a `downloadURL` serves while the record's
    /// field it came with holds the asset.
    public var linkLifetime: TimeInterval
    /// Seconds a `receipt` (of an upload, or of an asset in a fetched record) stays valid for
    /// saving the asset in the field it was made for: one hour unless given.
    public var receiptLifetime: TimeInterval
    /// Seconds an upload no saved record references is kept before the server removes it:
    /// 24 hours unless given (`Store.unreferencedAssetLifetime`).
    public var unreferencedLifetime: TimeInterval

    /// A configuration; every value has its documented default.
    ///
    /// ```swift
    /// let assets = AssetConfiguration(maximumSize: 1 << 20)
    /// ```
    public init(
        maximumSize: Int = 50 << 20, linkLifetime: TimeInterval = 3600, receiptLifetime: TimeInterval = 3600,
        unreferencedLifetime: TimeInterval = Store.unreferencedAssetLifetime
    ) {
        self.maximumSize = maximumSize
        self.linkLifetime = linkLifetime
        self.receiptLifetime = receiptLifetime
        self.unreferencedLifetime = unreferencedLifetime
    }
}
#endif

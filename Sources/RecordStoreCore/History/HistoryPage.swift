import Foundation

/// What an engine answers for a zone's history after a place (``StorageEngine/history(of:after:limit:recordTypes:)``),
/// all read in one snapshot: the entries in history order, the saved versions of the entries
/// that are not deletions, and the bounds that tell a caller whether its place is still valid.
///
/// ```swift
/// let page = try await engine.history(of: .default, after: .start, limit: 200, recordTypes: nil)
/// page.entries.count   // at most 201: one more than the limit says more are coming
/// ```
@_spi(StorageEngine) public struct HistoryPage: Sendable {
    /// At most `limit + 1` entries after the place, in ``HistoryPosition`` order.
    @_spi(StorageEngine) public var entries: [HistoryEntry]
    /// The saved versions of the entries that are not deletions, by name.
    @_spi(StorageEngine) public var records: [String: Record]
    /// The store's last change position when read: every change at or before it was read or is
    /// in the entries.
    @_spi(StorageEngine) public var position: Int64
    /// The last position whose tombstones were pruned: a place before it has lost deletions.
    @_spi(StorageEngine) public var floor: Int64
    /// The position at which the zone was created (0 for zones older than the history): a place
    /// before it belongs to an earlier zone of the same name.
    @_spi(StorageEngine) public var zoneCreated: Int64

    @_spi(StorageEngine) public init(entries: [HistoryEntry], records: [String: Record], position: Int64, floor: Int64, zoneCreated: Int64) {
        self.entries = entries
        self.records = records
        self.position = position
        self.floor = floor
        self.zoneCreated = zoneCreated
    }
}

/// What an engine answers for the database's zone history after a place
/// (``StorageEngine/zoneHistory(after:limit:)``), read in one snapshot.
///
/// ```swift
/// let page = try await engine.zoneHistory(after: .start, limit: 200)
/// page.entries.map(\.zone)   // the zones created, changed or deleted
/// ```
@_spi(StorageEngine) public struct ZoneHistoryPage: Sendable {
    /// At most `limit + 1` entries after the place, in ``HistoryPosition`` order.
    @_spi(StorageEngine) public var entries: [ZoneHistoryEntry]
    /// The store's last change position when read.
    @_spi(StorageEngine) public var position: Int64
    /// The last position whose tombstones were pruned.
    @_spi(StorageEngine) public var floor: Int64

    @_spi(StorageEngine) public init(entries: [ZoneHistoryEntry], position: Int64, floor: Int64) {
        self.entries = entries
        self.position = position
        self.floor = floor
    }
}

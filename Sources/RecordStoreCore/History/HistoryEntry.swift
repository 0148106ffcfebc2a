/// One record's last change in a zone's history: saved (its current version is in the
/// ``HistoryPage``) or deleted (a tombstone), at a ``HistoryPosition``.
///
/// ```swift
/// HistoryEntry(recordName: "2988507", recordType: "City", position: 12, isDeletion: false)
/// ```
@_spi(StorageEngine) public struct HistoryEntry: Sendable, Hashable {
    @_spi(StorageEngine) public var recordName: String
    /// The record's type (for a tombstone, the type it had).
    @_spi(StorageEngine) public var recordType: String
    /// The change position of the commit that last changed the record.
    @_spi(StorageEngine) public var position: Int64
    /// Whether the record was deleted.
    @_spi(StorageEngine) public var isDeletion: Bool

    @_spi(StorageEngine) public init(recordName: String, recordType: String, position: Int64, isDeletion: Bool) {
        self.recordName = recordName
        self.recordType = recordType
        self.position = position
        self.isDeletion = isDeletion
    }

    /// The entry's place in the history's order.
    @_spi(StorageEngine) public var place: HistoryPosition { HistoryPosition(position: position, name: recordName) }
}

/// One zone's last change in the database's history: records changed in it, created, or
/// deleted (a zone tombstone).
///
/// ```swift
/// ZoneHistoryEntry(zone: ZoneID(zoneName: "Notes"), position: 30, isDeletion: false)
/// ```
@_spi(StorageEngine) public struct ZoneHistoryEntry: Sendable, Hashable {
    @_spi(StorageEngine) public var zone: ZoneID
    /// The change position of the zone's last change.
    @_spi(StorageEngine) public var position: Int64
    /// Whether the zone was deleted.
    @_spi(StorageEngine) public var isDeletion: Bool

    @_spi(StorageEngine) public init(zone: ZoneID, position: Int64, isDeletion: Bool) {
        self.zone = zone
        self.position = position
        self.isDeletion = isDeletion
    }

    /// The entry's place in the history's order.
    @_spi(StorageEngine) public var place: HistoryPosition { HistoryPosition(position: position, name: zone.zoneName) }
}

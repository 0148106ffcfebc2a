import Foundation

/// The change history of an engine that keeps its records in Swift (the memory engine, or an
/// engine written outside this package): the store's change position, each record's last
/// change with tombstones for deletions, each zone's last change and its creation, zone
/// tombstones, and the floor below which pruned tombstones left the history incomplete.
///
/// A SQL engine keeps the same in tables (`$history`, the registry's `position`, `$tombstones`,
/// the zones' `position` and `created`, `$deletedZones`). Reads here scan a zone's entries
/// (memory is the reference engine, not the fast one).
///
/// ```swift
/// var book = ChangeHistoryBook()
/// let position = book.advance()
/// book.record(changes, at: position, date: Date())
/// let page = book.page(of: .default, after: .start, limit: 200, recordTypes: nil)
/// ```
@_spi(StorageEngine) public struct ChangeHistoryBook: Sendable {
    /// The last change position taken.
    @_spi(StorageEngine) public private(set) var position: Int64 = 0
    /// The last position whose tombstones were pruned.
    @_spi(StorageEngine) public private(set) var floor: Int64 = 0
    private var records: [ZoneID: [String: (entry: HistoryEntry, deletedAt: Date?)]] = [:]
    private var zones: [ZoneID: (position: Int64, created: Int64)] = [.default: (0, 0)]
    private var deletedZones: [ZoneID: (position: Int64, deletedAt: Date)] = [:]

    @_spi(StorageEngine) public init() {}

    /// Takes the next change position.
    @_spi(StorageEngine) public mutating func advance() -> Int64 {
        position += 1
        return position
    }

    /// Records a commit's changes at its position: each saved record's position, a tombstone
    /// for each deletion (replacing any earlier entry), and the position of each zone touched.
    @_spi(StorageEngine) public mutating func record(_ changes: CommittedChanges, at position: Int64, date: Date) {
        for entry in changes.entries {
            let zone = entry.recordID.zoneID
            let deleted = entry.kind == .deleted
            records[zone, default: [:]][entry.recordID.recordName] = (
                HistoryEntry(recordName: entry.recordID.recordName, recordType: entry.recordType, position: position, isDeletion: deleted),
                deleted ? date : nil)
            zones[zone, default: (position, position)].position = position
        }
    }

    /// Gives the entries (and tombstones) of a record type's records another type name, their
    /// positions unchanged: a schema migration renamed the type.
    @_spi(StorageEngine) public mutating func renameRecordType(_ recordType: String, to name: String) {
        for zone in records.keys {
            for recordName in records[zone]?.keys.map({ $0 }) ?? [] where records[zone]?[recordName]?.entry.recordType == recordType {
                records[zone]?[recordName]?.entry.recordType = name
            }
        }
    }

    /// Records a zone's creation at a position (nothing when it exists).
    @_spi(StorageEngine) public mutating func createZone(_ zone: ZoneID, at position: Int64) {
        guard zones[zone] == nil else { return }
        zones[zone] = (position, position)
        deletedZones[zone] = nil
        records[zone] = nil
    }

    /// Records a zone's deletion at a position: its records' history goes with it, a zone
    /// tombstone stays.
    @_spi(StorageEngine) public mutating func deleteZone(_ zone: ZoneID, at position: Int64, date: Date) {
        zones[zone] = nil
        records[zone] = nil
        deletedZones[zone] = (position, date)
    }

    /// The entries of a zone after a place (at most `limit + 1`), the record types filtered.
    @_spi(StorageEngine) public func entries(of zone: ZoneID, after place: HistoryPosition, limit: Int, recordTypes: Set<String>?) -> [HistoryEntry] {
        let candidates = (records[zone] ?? [:]).values.lazy.map(\.entry).filter { entry in
            place < entry.place && (recordTypes?.contains(entry.recordType) ?? true)
        }
        return Array(candidates.sorted { $0.place < $1.place }.prefix(limit + 1))
    }

    /// A zone's page of history (``StorageEngine/history(of:after:limit:recordTypes:)``): its
    /// entries after a place, each saved one's record as `record` finds it, and the bounds.
    @_spi(StorageEngine) public func page(
        of zone: ZoneID, after place: HistoryPosition, limit: Int, recordTypes: Set<String>?, record: (RecordID) -> Record?
    ) -> HistoryPage {
        let entries = limit > 0 ? entries(of: zone, after: place, limit: limit, recordTypes: recordTypes) : []
        var records: [String: Record] = [:]
        for entry in entries where !entry.isDeletion {
            records[entry.recordName] = record(RecordID(recordName: entry.recordName, zoneID: zone))
        }
        return HistoryPage(entries: entries, records: records, position: position, floor: floor, zoneCreated: creation(of: zone) ?? 0)
    }

    /// The database's page of zone history (``StorageEngine/zoneHistory(after:limit:)``).
    @_spi(StorageEngine) public func zonePage(after place: HistoryPosition, limit: Int) -> ZoneHistoryPage {
        ZoneHistoryPage(entries: zoneEntries(after: place, limit: limit), position: position, floor: floor)
    }

    /// The position at which a zone was created; nil when it does not exist.
    @_spi(StorageEngine) public func creation(of zone: ZoneID) -> Int64? {
        zones[zone]?.created
    }

    /// The zone changes after a place (at most `limit + 1`).
    @_spi(StorageEngine) public func zoneEntries(after place: HistoryPosition, limit: Int) -> [ZoneHistoryEntry] {
        let changed = zones.map { ZoneHistoryEntry(zone: $0.key, position: $0.value.position, isDeletion: false) }
        let deleted = deletedZones.map { ZoneHistoryEntry(zone: $0.key, position: $0.value.position, isDeletion: true) }
        return Array((changed + deleted).filter { place < $0.place }.sorted { $0.place < $1.place }.prefix(limit + 1))
    }

    /// Drops the tombstones (of records and zones) of deletions before a date, and raises the
    /// floor to the last position dropped.
    @_spi(StorageEngine) public mutating func prune(deletedBefore date: Date) -> HistoryPruning {
        var pruning = HistoryPruning(dropped: 0, kept: 0)
        for zone in Array(records.keys) {
            guard let zoneRecords = records[zone] else { continue }
            for (name, item) in zoneRecords {
                guard let deletedAt = item.deletedAt else { continue }
                guard deletedAt < date else {
                    pruning.kept += 1
                    continue
                }
                floor = max(floor, item.entry.position)
                records[zone]?[name] = nil
                pruning.dropped += 1
            }
        }
        for (zone, item) in deletedZones {
            guard item.deletedAt < date else {
                pruning.kept += 1
                continue
            }
            floor = max(floor, item.position)
            deletedZones[zone] = nil
            pruning.dropped += 1
        }
        return pruning
    }
}

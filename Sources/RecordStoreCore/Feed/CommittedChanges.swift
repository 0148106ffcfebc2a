/// What one committed write transaction changed, as live queries learn it: which records were
/// created, updated or deleted (with their record types), the new versions when the committing
/// engine had them at hand, and the parts of the store whose changes could not be listed.
///
/// Every engine describes its commits this way: the memory and SQLite engines hand the
/// description to their ``ChangeFeed`` as they commit (SQLite also logs it in its file for other
/// processes, ``SQLiteChangeLog``), PostgreSQL sends it to every client with `NOTIFY`.
///
/// ```swift
/// let changes = CommittedChanges(sequence: 42, entries: [
///     .init(kind: .updated, recordID: RecordID(recordName: "2988507"), recordType: "City"),
/// ])
/// changes.touches(recordType: "City", zone: .default)   // true
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `RecordChangeSet`,
/// `ModifyBatch`, `PendingChangeSet` and `SchemaChange`.
@_spi(StorageEngine) public struct CommittedChanges: Sendable, Equatable {
    /// What happened to one record.
    @_spi(StorageEngine) public enum Kind: UInt8, Sendable {
        case created = 1
        case updated = 2
        case deleted = 3
    }

    /// One record the transaction changed.
    @_spi(StorageEngine) public struct Entry: Sendable, Hashable {
        @_spi(StorageEngine) public var kind: Kind
        @_spi(StorageEngine) public var recordID: RecordID
        /// The record's type (for a deletion, the type it had).
        @_spi(StorageEngine) public var recordType: String
        /// The type the record had before an update that changed it; nil otherwise.
        @_spi(StorageEngine) public var previousRecordType: String?

        @_spi(StorageEngine) public init(kind: Kind, recordID: RecordID, recordType: String, previousRecordType: String? = nil) {
            self.kind = kind
            self.recordID = recordID
            self.recordType = recordType
            self.previousRecordType = previousRecordType
        }

        /// Whether this change can concern records of this type in this zone.
        @_spi(StorageEngine) public func touches(recordType type: String, zone: ZoneID) -> Bool {
            recordID.zoneID == zone && (recordType == type || previousRecordType == type)
        }
    }

    /// A part of the store whose changes the transaction did not list one by one (a deleted zone,
    /// or a commit too large for a notification): observers of it read their results again.
    @_spi(StorageEngine) public struct Scope: Sendable, Hashable {
        @_spi(StorageEngine) public var zone: ZoneID
        /// The record type, or nil for every type in the zone.
        @_spi(StorageEngine) public var recordType: String?

        @_spi(StorageEngine) public init(zone: ZoneID, recordType: String? = nil) {
            self.zone = zone
            self.recordType = recordType
        }

        /// Every record of every zone: what a schema migration changed (its renames, removed
        /// fields and filled defaults), so that every observer reads its results again. Its
        /// zone has the empty name, which no zone can have, and which notifications carry as is.
        ///
        /// ```swift
        /// CommittedChanges(sequence: 0, unlisted: [.everything]).touches(recordType: "City", zone: .default)   // true
        /// ```
        @_spi(StorageEngine) public static let everything = Scope(zone: ZoneID(zoneName: ""))

        /// Whether the scope is a zone's records, rather than ``everything``.
        @_spi(StorageEngine) public var isOneZone: Bool { !zone.zoneName.isEmpty }

        /// Whether the scope holds records of the zone (of some type).
        @_spi(StorageEngine) public func includes(_ zone: ZoneID) -> Bool {
            !isOneZone || self.zone == zone
        }

        @_spi(StorageEngine) public func covers(recordType type: String, zone: ZoneID) -> Bool {
            includes(zone) && (recordType == nil || recordType == type)
        }
    }

    /// The commit's place in the store's order of commits (the change log's sequence number on
    /// SQLite, a sequence value on PostgreSQL, a counter in memory).
    @_spi(StorageEngine) public var sequence: Int64
    /// The records changed, each at most once, in the order written.
    @_spi(StorageEngine) public var entries: [Entry]
    /// What changed without being listed.
    @_spi(StorageEngine) public var unlisted: [Scope]
    /// The new versions of the created and updated records, when the committing engine had them
    /// (otherwise the feed reads them before delivering).
    @_spi(StorageEngine) public var savedRecords: [RecordID: Record]
    /// The evaluations of the commit's records its observers share (one for every delivery of
    /// this commit; not part of the commit's value).
    package var evaluations = CommitEvaluations()

    @_spi(StorageEngine) public init(sequence: Int64, entries: [Entry] = [], unlisted: [Scope] = [], savedRecords: [RecordID: Record] = [:]) {
        self.sequence = sequence
        self.entries = entries
        self.unlisted = unlisted
        self.savedRecords = savedRecords
    }

    /// The description of a save: its writes (created or updated, by the stored version each
    /// replaced) and its deletions of stored records (by the stored version read before).
    @_spi(StorageEngine) public init(sequence: Int64, plan: WritePlan, stored: [RecordID: StoredVersion]) {
        var entries: [Entry] = []
        var saved: [RecordID: Record] = [:]
        entries.reserveCapacity(plan.writes.count + plan.deletions.count)
        saved.reserveCapacity(plan.writes.count)
        for write in plan.writes {
            let record = write.record
            saved[record.recordID] = record
            if let replaced = write.replacing {
                entries.append(Entry(
                    kind: .updated, recordID: record.recordID, recordType: record.recordType,
                    previousRecordType: replaced.recordType == record.recordType ? nil : replaced.recordType))
            } else {
                entries.append(Entry(kind: .created, recordID: record.recordID, recordType: record.recordType))
            }
        }
        for id in plan.deletions {
            guard let version = stored[id], saved[id] == nil else { continue }
            entries.append(Entry(kind: .deleted, recordID: id, recordType: version.recordType))
        }
        self.init(sequence: sequence, entries: entries, savedRecords: saved)
    }

    /// Commits are equal when they say the same (their shared evaluations aside).
    @_spi(StorageEngine) public static func == (lhs: CommittedChanges, rhs: CommittedChanges) -> Bool {
        lhs.sequence == rhs.sequence && lhs.entries == rhs.entries && lhs.unlisted == rhs.unlisted && lhs.savedRecords == rhs.savedRecords
    }

    /// Whether nothing was changed.
    @_spi(StorageEngine) public var isEmpty: Bool { entries.isEmpty && unlisted.isEmpty }

    /// Whether the transaction may have changed records of this type in this zone.
    @_spi(StorageEngine) public func touches(recordType: String, zone: ZoneID) -> Bool {
        unlisted.contains { $0.covers(recordType: recordType, zone: zone) }
            || entries.contains { $0.touches(recordType: recordType, zone: zone) }
    }

    /// Whether the transaction changed records of this type in this zone without listing them.
    @_spi(StorageEngine) public func changesUnlisted(recordType: String, zone: ZoneID) -> Bool {
        unlisted.contains { $0.covers(recordType: recordType, zone: zone) }
    }

    /// The same changes with the record lists replaced by their scopes (what a notification too
    /// large to list its records carries).
    @_spi(StorageEngine) public var summarized: CommittedChanges {
        var scopes = unlisted
        for entry in entries {
            for type in [entry.recordType, entry.previousRecordType].compactMap({ $0 }) {
                let scope = Scope(zone: entry.recordID.zoneID, recordType: type)
                if !scopes.contains(scope) { scopes.append(scope) }
            }
        }
        return CommittedChanges(sequence: sequence, unlisted: scopes)
    }
}

/// What the shares give a user on records: the resolution a server runs before reading or writing
/// shared records.
extension Store {
    /// How many parents the resolution climbs from a record before it stops (a deeper record is
    /// reached by no record share; a zone-wide share still counts).
    public static let maximumShareHierarchyDepth = 128

    /// What the shares give a user on a record: the greatest permission of the zone's zone-wide
    /// share and of every record share rooted at the record or at one of its ancestors (its
    /// ``Record/parent``, the parent's parent, …, at most ``maximumShareHierarchyDepth`` steps;
    /// a cycle stops the climb where it closes). Nil when no share reaches the record or none
    /// gives the user access: they are not a participant, have not accepted, or were removed.
    /// The owner of a share reaching the record gets `READ_WRITE`.
    ///
    /// Every call reads the shares afresh from the store, so a participant removed or a share
    /// deleted loses access at the next call, on every server over the store. A record that is
    /// not stored is reached by the zone-wide share only; to judge a record about to be saved
    /// (a new child), use ``sharePermission(toSave:for:)``, which climbs from its parent.
    ///
    /// ```swift
    /// try await store.sharePermission(of: stopID, for: "_bob")    // .readOnly (through stop -> trip)
    /// try await store.sharePermission(of: otherID, for: "_bob")   // nil
    /// ```
    public func sharePermission(of recordID: RecordID, for user: String) async throws(RecordStoreError) -> SharePermission? {
        try await sharePermissions(of: [recordID], for: user)[recordID]
    }

    /// What the shares give a user on a record about to be saved, as given (not as stored): the
    /// record's own share, if it is a root, then its ``Record/parent`` chain as stored. What a
    /// server asks before saving a record into a shared hierarchy (a new child, or a record given
    /// a new parent: ask for the stored record too).
    ///
    /// ```swift
    /// var stop = Record(recordType: "Stop", recordID: RecordID(recordName: "orsay", zoneID: trips))
    /// stop.parent = tripID
    /// try await store.sharePermission(toSave: stop, for: "_carol")   // .readWrite: Carol may save it
    /// ```
    public func sharePermission(toSave record: Record, for user: String) async throws(RecordStoreError) -> SharePermission? {
        try await resolvePermissions(of: [record.recordID], given: [record.recordID: record.parent], for: user)[record.recordID]
    }

    /// What the shares give a user on each of these records (those with no permission left out),
    /// as ``sharePermission(of:for:)`` resolves one: each zone's shares read once, and the parent
    /// chains read a level at a time for all the records together (one lookup a level), so a page
    /// of records costs a few reads, not a few per record.
    ///
    /// ```swift
    /// let permissions = try await store.sharePermissions(of: page.map(\.recordID), for: "_bob")
    /// let readable = page.filter { permissions[$0.recordID] != nil }
    /// ```
    public func sharePermissions(of recordIDs: [RecordID], for user: String) async throws(RecordStoreError) -> [RecordID: SharePermission] {
        try await resolvePermissions(of: recordIDs, given: [:], for: user)
    }

    /// The resolution: for each zone, its shares; then the parents of the records, a level at a
    /// time (`given` holds parents already known: a record about to be saved), then each climb.
    private func resolvePermissions(
        of recordIDs: [RecordID], given: [RecordID: RecordID?], for user: String
    ) async throws(RecordStoreError) -> [RecordID: SharePermission] {
        var sharesByZone: [ZoneID: [RecordShare]] = [:]
        for zone in Set(recordIDs.map(\.zoneID)) {
            let shares = try await self.shares(in: zone)
            if !shares.isEmpty { sharesByZone[zone] = shares }
        }
        guard !sharesByZone.isEmpty else { return [:] }
        // The zone-wide grants, and the record shares by root.
        var zoneGrants: [ZoneID: SharePermission] = [:]
        var rooted: [RecordID: SharePermission] = [:]
        var climbs: Set<ZoneID> = []
        for (zone, shares) in sharesByZone {
            for share in shares {
                guard let root = share.rootRecordID else {
                    if let permission = share.permission(for: user) { zoneGrants[zone] = permission }
                    continue
                }
                guard let permission = share.permission(for: user) else { continue }
                rooted[root] = max(rooted[root] ?? permission, permission)
                climbs.insert(zone)
            }
        }
        // The parents, a level at a time, of the records in zones with a record share the user may use.
        var parents = given
        if !rooted.isEmpty {
            let known = given.values.compactMap { $0 }
            var frontier = Array(Set((recordIDs + known).filter { climbs.contains($0.zoneID) && parents[$0] == nil }))
            var level = 0
            while !frontier.isEmpty, level <= Self.maximumShareHierarchyDepth {
                let found = try await lookup(frontier.filter(\.canBeStored))
                var next = Set<RecordID>()
                for id in frontier {
                    let parent = found[id]?.parent.flatMap { $0.zoneID == id.zoneID ? $0 : nil }
                    parents[id] = .some(parent)
                    if let parent, parents[parent] == nil { next.insert(parent) }
                }
                frontier = Array(next)
                level += 1
            }
        }
        var permissions: [RecordID: SharePermission] = [:]
        for id in recordIDs {
            var best = zoneGrants[id.zoneID]
            var current: RecordID? = rooted.isEmpty ? nil : id
            var visited = Set<RecordID>()
            while let step = current, visited.count <= Self.maximumShareHierarchyDepth, visited.insert(step).inserted {
                if let granted = rooted[step] { best = max(best ?? granted, granted) }
                current = parents[step] ?? nil
            }
            if let best { permissions[id] = best }
        }
        return permissions
    }
}

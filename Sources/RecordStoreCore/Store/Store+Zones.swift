extension Store {
    /// Creates a zone; creating one that exists does nothing.
    ///
    /// ```swift
    /// try store.createZone(ZoneID(zoneName: "Archive"))
    /// ```
    public func createZone(_ zone: ZoneID) throws(RecordStoreError) {
        try synchronously { try await self.createZone(zone) }
    }

    /// Creates a zone (async); creating one that exists does nothing.
    ///
    /// ```swift
    /// try await store.createZone(ZoneID(zoneName: "Archive"))
    /// ```
    public func createZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard !NulCharacter.isIn(zone.zoneName) else { throw .invalidZoneName(zone.zoneName) }
        try await engine.createZone(zone)
    }

    /// The zones, the default zone first, then by name.
    ///
    /// ```swift
    /// try store.zones()   // [_defaultZone, Archive]
    /// ```
    public func zones() throws(RecordStoreError) -> [ZoneID] {
        try synchronously { try await self.zones() }
    }

    /// The zones, the default zone first, then by name (async).
    ///
    /// ```swift
    /// try await store.zones()   // [_defaultZone, Archive]
    /// ```
    public func zones() async throws(RecordStoreError) -> [ZoneID] {
        try await engine.zones()
    }

    /// Deletes a zone and all of its records. The default zone cannot be deleted.
    ///
    /// ```swift
    /// try store.deleteZone(ZoneID(zoneName: "Archive"))
    /// ```
    public func deleteZone(_ zone: ZoneID) throws(RecordStoreError) {
        try synchronously { try await self.deleteZone(zone) }
    }

    /// Deletes a zone and all of its records (async). The default zone cannot be deleted.
    ///
    /// ```swift
    /// try await store.deleteZone(ZoneID(zoneName: "Archive"))
    /// ```
    public func deleteZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard !NulCharacter.isIn(zone.zoneName) else { throw .zoneNotFound(zone) }
        try await engine.deleteZone(zone)
    }
}

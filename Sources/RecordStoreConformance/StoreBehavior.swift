/// A behaviour of a store beyond its queries that the conformance suite checks on an engine:
/// each is one ``ConformanceCase`` of ``ConformanceCase/storeBehaviors``, run by
/// ``EngineConformance/differences(_:in:reference:)`` like a query case.
///
/// Each check works in zones of its own, named after it and made unique, and deletes them when
/// it is done; its records are `City` records with a `name` and a `population`, so that it
/// neither adds a record type nor touches the default zone's cities.
///
/// ```swift
/// let zones = ConformanceCase(behavior: .zones)
/// #expect(try await EngineConformance.differences(zones, in: store, reference: reference) == [])
/// ```
public enum StoreBehavior: String, CaseIterable, Sendable {
    /// Saving new records, updating them with their change tags and deleting them: what is read
    /// back is what was saved, each save gives a new change tag, and a deleted record is gone.
    case saves
    /// Optimistic concurrency: saving with a stale change tag, saving a new record over a stored
    /// one, and deleting with an expected change tag that no longer holds are conflicts, and a
    /// failed save applies none of its records.
    case conflicts
    /// The save policies: `.ifServerRecordUnchanged` is the plain save, `.allKeys` replaces what
    /// is stored whatever its change tag, `.changedKeys` merges the given fields into it.
    case savePolicies
    /// Zones: created (twice is once), listed (the default zone first, then by name), written
    /// to, deleted with their records; the default zone cannot be deleted, an unknown zone is
    /// not found.
    case zones
    /// The change history: a zone's changes since a token are the records saved (each once,
    /// latest state) and deleted since, and the database's changes name the zone.
    case changeHistory
    /// The change history in pages: a limit splits the changes, `moreComing` says when more
    /// wait, and the pages together are every change once, in order.
    case changeHistoryPaging
    /// Assets: bytes saved (empty, small, several chunks) read back identical; an engine without
    /// asset storage says so with `AssetError.unsupported`, which the check accepts.
    case assets
    /// Live queries: an observed query yields its results, then the change a save makes to them
    /// (an insertion), then a deletion's.
    case liveChanges
}

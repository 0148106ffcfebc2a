// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

extension CloudKitService {
    /// Refuses a `records/modify` whose saves, taken together, would grow the schema past the
    /// store's ``SchemaLimits`` (fields a record type, record types, schema changes a request):
    /// `BAD_REQUEST` naming the bound, before anything is saved. The store checks each save
    /// against the same limits as it admits it, so an atomic request (one save) is bounded as one
    /// by the store, and its refusal answered as this one's; this check bounds a request that is
    /// not atomic (saved a record at a time) as one too, so that one request's schema work stays
    /// bounded. A record the store would refuse for another reason (a field whose type differs)
    /// is left to the save, which answers it on its own.
    ///
    /// ```swift
    /// try await checkSchemaGrowth(of: saves, in: store)   // a record with 1,000 new fields: BAD_REQUEST
    /// ```
    func checkSchemaGrowth(of saves: [Record], in store: Store) async throws(ServerError) {
        guard store.mode == .development, store.schemaLimits != .unlimited, !saves.isEmpty else { return }
        var catalog = try await run { () async throws(RecordStoreError) in try await store.engine.catalog() }
        var changes: [SchemaChange] = []
        for record in saves {
            var trial = catalog
            var admitted = [record]
            guard let made = try? trial.admit(&admitted, mode: store.mode), !made.isEmpty else { continue }
            catalog = trial
            changes += made
            do {
                try store.schemaLimits.check(changes, catalog: catalog)
            } catch {
                throw ServerError(.badRequest, error.description)
            }
        }
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

extension CloudKitService {
    /// Applies a `.ckdb` document to both environments (what `query serve --schema` asks): it is
    /// checked against both schemas first, so that a document either one refuses (a field whose
    /// type would change) changes neither, and throws its `SchemaLanguageError`.
    ///
    /// ```swift
    /// try await service.applySchema(try CloudKitSchemaDocument(parsing: text))
    /// ```
    public func applySchema(_ document: CloudKitSchemaDocument) async throws {
        let stores = [store, try await bookkeepingStore(for: .development)]
        for store in stores {
            let current = try await run { () async throws(RecordStoreError) in try await store.schema() }
            _ = try document.storeSchemas(applyingTo: current)
        }
        for store in stores { try await store.apply(document) }
    }

    /// The zones of both environments' stores (the production store's first).
    func zonesOfEveryEnvironment() async throws(ServerError) -> [ZoneID] {
        var zones: [ZoneID] = []
        for environment in [Namespace.Environment.production, .development] {
            let store = try await bookkeepingStore(for: environment)
            zones += try await run { () async throws(RecordStoreError) in try await store.zones() }
        }
        return zones
    }
}
#endif

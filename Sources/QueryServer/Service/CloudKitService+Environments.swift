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
        let stores = try await bookkeepingStores().map(\.store)
        for store in stores {
            let current = try await run { () async throws(RecordStoreError) in try await store.schema() }
            _ = try document.storeSchemas(applyingTo: current)
        }
        for store in stores { try await store.apply(document) }
    }

    /// The zones of both environments' stores (the production store's first).
    func zonesOfEveryEnvironment() async throws(ServerError) -> [ZoneID] {
        var zones: [ZoneID] = []
        for (_, store) in try await bookkeepingStores() {
            zones += try await run { () async throws(RecordStoreError) in try await store.zones() }
        }
        return zones
    }

    /// Each environment's bookkeeping store, production's first; development's is left out when
    /// the engine keeps no store beside the served one (``DevelopmentStore/storeIfAvailable()``).
    func bookkeepingStores() async throws(ServerError) -> [(environment: Namespace.Environment, store: Store)] {
        var stores: [(environment: Namespace.Environment, store: Store)] = [(.production, store)]
        if let development = try await developmentStore.storeIfAvailable() { stores.append((.development, development)) }
        return stores
    }
}
#endif

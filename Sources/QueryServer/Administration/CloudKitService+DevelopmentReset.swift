// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

extension CloudKitService {
    /// `schema/reset`: resets the development environment, as CloudKit Dashboard's "Reset
    /// Development Environment" does: every zone and record of development goes (its
    /// subscriptions and shares with them), and its schema becomes production's again. Answers
    /// the `DevelopmentReset` of what was there (with `"dryRun": true`, only that, nothing
    /// deleted). The request names the development environment (`BAD_REQUEST` for production's).
    ///
    /// The development store is emptied by its engine (`Store.removeSibling(named:)`), opened
    /// anew, and given production's schema (`Store.deploySchema(from:progress:)`); change
    /// tokens of the old store no longer continue, and development's subscriptions are followed
    /// in the new store.
    ///
    /// ```swift
    /// let reset = try await service.resetDevelopment(["dryRun": true], in: Namespace(environment: .development, database: .public))
    /// // {"environment": "development", "dryRun": true, "zones": ["_defaultZone"], "records": {"City": 3}, ...}
    /// ```
    public func resetDevelopment(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(SchemaPlanRequest.self, from: body)
        guard namespace.environment == .development else {
            throw ServerError(.badRequest, "only the development environment is reset: production's records and schema stay")
        }
        let development = try await bookkeepingStore(for: .development)
        let production = store
        let reset = try await run { () async throws(RecordStoreError) -> DevelopmentReset in
            let zones = try await development.zones()
            let schema = try await development.schema()
            var records: [String: Int] = [:]
            for recordType in schema where !SystemRecordTypes.contains(recordType.name) {
                var count = 0
                for zone in zones { count += try await development.count(ofType: recordType.name, matching: .truePredicate, zone: zone) }
                if count > 0 { records[recordType.name] = count }
            }
            return DevelopmentReset(dryRun: request.dryRun, zones: zones.map(\.zoneName).sorted(), records: records,
                                    development: schema, production: try await production.schema())
        }
        guard !request.dryRun else { return reset.json }
        try await developmentStore.reset()
        createdDefaultZones.removeAll()
        try await restartNotifications(in: .development)
        return reset.json
    }
}
#endif

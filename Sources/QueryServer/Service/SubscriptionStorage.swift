// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// Where a namespace's subscriptions live: records of the type ``recordType`` in a zone of
/// their own, `subscriptions/` and the namespace's prefix (a name no client zone can take: client
/// zone names have no `/`), in the environment's store. Kept in the store, every server process
/// over it sees the same subscriptions.
///
/// ```swift
/// let storage = SubscriptionStorage(namespace: namespace, service: service)
/// try await storage.save(subscription)
/// let all = try await storage.all()
/// ```
struct SubscriptionStorage: Sendable {
    /// The record type of stored subscriptions.
    static let recordType = "QueryServerSubscription"

    let namespace: Namespace
    let service: CloudKitService

    /// The zone holding the namespace's subscriptions.
    var zone: ZoneID { ZoneID(zoneName: "subscriptions/" + namespace.prefix) }

    /// Saves a subscription (creating or replacing it).
    func save(_ subscription: Subscription) async throws(ServerError) {
        let store = try await service.bookkeepingStore(for: namespace.environment)
        let zone = self.zone
        var record = Record(recordType: Self.recordType, recordID: RecordID(recordName: subscription.subscriptionID, zoneID: zone))
        record["definition"] = .string(String(decoding: subscription.json.jsonBytes(), as: UTF8.self))
        try await service.run { () async throws(RecordStoreError) in
            try await store.createZone(zone)
            try await Self.defineRecordType(store)
            if let stored = try await store.record(for: record.recordID) { record.recordChangeTag = stored.recordChangeTag }
            _ = try await store.save([record])
        }
    }

    /// Deletes a subscription; false when there was none of that ID.
    func delete(_ subscriptionID: String) async throws(ServerError) -> Bool {
        let store = try await service.bookkeepingStore(for: namespace.environment)
        let id = RecordID(recordName: subscriptionID, zoneID: zone)
        return try await service.run { () async throws(RecordStoreError) -> Bool in
            guard try await Self.orNothing(nil, { () async throws(RecordStoreError) in try await store.record(for: id) }) != nil else { return false }
            try await store.delete([id])
            return true
        }
    }

    /// The subscription of an ID, or nil.
    func subscription(_ subscriptionID: String) async throws(ServerError) -> Subscription? {
        let store = try await service.bookkeepingStore(for: namespace.environment)
        let id = RecordID(recordName: subscriptionID, zoneID: zone)
        let record = try await service.run { () async throws(RecordStoreError) -> Record? in
            try await Self.orNothing(nil) { () async throws(RecordStoreError) in try await store.record(for: id) }
        }
        guard let record else { return nil }
        return try await decode(record)
    }

    /// Every subscription of the namespace, by ID.
    func all() async throws(ServerError) -> [Subscription] {
        let store = try await service.bookkeepingStore(for: namespace.environment)
        let zone = self.zone
        let records = try await service.run { () async throws(RecordStoreError) -> [Record] in
            try await Self.orNothing([]) { () async throws(RecordStoreError) in
                try await store.records(ofType: Self.recordType, matching: .truePredicate, zone: zone)
            }
        }
        var subscriptions: [Subscription] = []
        for record in records { subscriptions.append(try await decode(record)) }
        return subscriptions
    }

    /// A stored subscription, read back through the same checks as a request's.
    func decode(_ record: Record) async throws(ServerError) -> Subscription {
        guard case .string(let text)? = record["definition"] else {
            throw ServerError(.internalError, "the stored subscription \(record.recordID.recordName) has no definition")
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Array(text.utf8))
        } catch {
            throw ServerError(.internalError, "the stored subscription \(record.recordID.recordName) is damaged: \(error)")
        }
        return try await Subscription(json, path: "subscription", namespace: namespace, service: service)
    }

    /// A read's answer, or `nothing` when the namespace never stored a subscription (no zone or
    /// no record type yet).
    private static func orNothing<T>(_ nothing: T, _ read: () async throws(RecordStoreError) -> T) async throws(RecordStoreError) -> T {
        do {
            return try await read()
        } catch .zoneNotFound, .unknownRecordType {
            return nothing
        }
    }

    /// Declares the subscription record type (so that a production-mode store takes it).
    private static func defineRecordType(_ store: Store) async throws(RecordStoreError) {
        guard try await store.schema(for: recordType) == nil else { return }
        try await store.define(RecordTypeSchema(name: recordType, fields: [
            FieldSchema(name: "definition", type: .string, isQueryable: false, isSortable: false),
        ]))
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// A CloudKit query subscription (`subscriptionType: "query"`): notify when records of a type
/// that match a filter are created, updated or deleted in a zone.
///
/// Read from the subscription dictionary of `subscriptions/modify`, kept in the store
/// (``SubscriptionStorage``), and written back in CloudKit's shape: `subscriptionID`,
/// `subscriptionType`, `query` (`recordType`, `filterBy`, and this server's `predicate`),
/// `firesOn` (`create`, `update`, `delete`), `firesOnce`, `zoneID`, and `notificationInfo`
/// (kept as sent; this server delivers notifications over Server-Sent Events, not push).
///
/// ```swift
/// let subscription = try await QuerySubscription(request, query: query, namespace: namespace, service: service)
/// subscription.fires(on: .recordCreated)   // true when firesOn holds "create"
/// ```
struct QuerySubscription: Sendable {
    /// Why a notification fires (`CKQueryNotification.Reason`).
    enum Reason: String, Sendable, CaseIterable {
        case recordCreated = "RECORD_CREATED"
        case recordUpdated = "RECORD_UPDATED"
        case recordDeleted = "RECORD_DELETED"

        /// The `firesOn` keyword.
        var firesOnKeyword: String {
            switch self {
            case .recordCreated: "create"
            case .recordUpdated: "update"
            case .recordDeleted: "delete"
            }
        }

        /// CloudKit's number for it in a push payload (`fo`).
        var number: Int64 {
            switch self {
            case .recordCreated: 1
            case .recordUpdated: 2
            case .recordDeleted: 3
            }
        }
    }

    let subscriptionID: String
    /// The query's record type, condition and zone (in the store).
    let recordType: String
    let predicate: FormatPredicate
    let zone: ZoneID
    /// The reasons it fires for.
    let firesOn: Set<Reason>
    /// Whether it is deleted after its first notification.
    let firesOnce: Bool
    /// The subscription dictionary, as answered (and stored).
    let json: JSONValue

    /// The longest subscription ID taken.
    static let longestIdentifier = 255

    /// Checks a query subscription request (``SubscriptionRequest``), its query against the store.
    init(_ request: SubscriptionRequest, query sent: SubscriptionRequest.Query, namespace: Namespace, service: CloudKitService) async throws(ServerError) {
        let query = try await service.recordQuery(sent.query, in: namespace)
        // In production, a subscription is held to the rules a `records/query` of it meets: a
        // known record type, known fields, and the index types the filter needs.
        let store = try await service.store(for: namespace)
        if store.mode == .production {
            try await service.run { () async throws(RecordStoreError) in try await store.check(query) }
        }
        let zone = try await service.zone(request.zoneID, in: namespace)

        subscriptionID = request.subscriptionID
        recordType = query.recordType
        predicate = query.predicate
        self.zone = zone
        firesOn = sent.firesOn
        firesOnce = sent.firesOnce
        var members: [String: JSONValue] = [
            "subscriptionID": .string(request.subscriptionID),
            "subscriptionType": .string("query"),
            "query": sent.queryJSON,
            "firesOn": .array(Reason.allCases.filter(sent.firesOn.contains).map { .string($0.firesOnKeyword) }),
            "firesOnce": .bool(firesOnce),
            "zoneID": .object(["zoneName": .string(namespace.clientZoneName(zone) ?? zone.zoneName)]),
        ]
        if let info = request.notificationInfo { members["notificationInfo"] = info }
        json = .object(members)
    }

    /// Whether it fires for a reason.
    func fires(on reason: Reason) -> Bool { firesOn.contains(reason) }
}
#endif

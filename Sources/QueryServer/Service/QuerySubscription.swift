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
/// let subscription = try await QuerySubscription(json, path: "subscription", namespace: namespace, service: service)
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

    /// Reads and checks a subscription dictionary of a request (at `path`, for errors).
    init(_ value: JSONValue, path: String, namespace: Namespace, service: CloudKitService) async throws(ServerError) {
        let object = try RequestObject(value, path: path)
        let identifier = try object.requiredString("subscriptionID")
        guard !identifier.isEmpty, identifier.utf8.count <= Self.longestIdentifier, !identifier.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw ServerError(.badRequest, "\(object.path("subscriptionID")) has 1 to \(Self.longestIdentifier) bytes and no control characters")
        }
        switch try object.string("subscriptionType", #""query""#) ?? "query" {
        case "query": break
        case "zone": throw ServerError(.badRequest, "zone subscriptions are not supported by this server; subscribe with a query")
        case let other: throw ServerError(.badRequest, "\(object.path("subscriptionType")) is \"query\", not \"\(other.prefix(40))\"")
        }
        let query = try await service.recordQuery(try object.decodeRequired("query"), in: namespace)
        // In production, a subscription is held to the rules a `records/query` of it meets: a
        // known record type, known fields, and the index types the filter needs.
        let store = try await service.store(for: namespace)
        if store.mode == .production {
            try await service.run { () async throws(RecordStoreError) in try await store.check(query) }
        }
        let expected = #"an array of "create", "update" or "delete""#
        let keywords = try object.requiredArray("firesOn", expected)
        guard !keywords.isEmpty else { throw ServerError(.badRequest, "\(object.path("firesOn")) is empty; it is \(expected)") }
        var reasons = Set<Reason>()
        for (index, keyword) in keywords.enumerated() {
            guard let reason = Reason.allCases.first(where: { $0.firesOnKeyword == keyword.stringValue }) else {
                throw ServerError(.badRequest, "\(object.path("firesOn"))[\(index)] is \"create\", \"update\" or \"delete\", not \(keyword.kindName)")
            }
            reasons.insert(reason)
        }
        let once = try object.bool("firesOnce") ?? false
        let zone = try await service.zone(try object.decode("zoneID"), in: namespace)

        subscriptionID = identifier
        recordType = query.recordType
        predicate = query.predicate
        self.zone = zone
        firesOn = reasons
        firesOnce = once
        var members: [String: JSONValue] = [
            "subscriptionID": .string(identifier),
            "subscriptionType": .string("query"),
            "query": object.members["query"] ?? .null,
            "firesOn": .array(Reason.allCases.filter(reasons.contains).map { .string($0.firesOnKeyword) }),
            "firesOnce": .bool(firesOnce),
            "zoneID": .object(["zoneName": .string(namespace.clientZoneName(zone) ?? zone.zoneName)]),
        ]
        if let info = object["notificationInfo"] { members["notificationInfo"] = info }
        json = .object(members)
    }

    /// Whether it fires for a reason.
    func fires(on reason: Reason) -> Bool { firesOn.contains(reason) }
}
#endif

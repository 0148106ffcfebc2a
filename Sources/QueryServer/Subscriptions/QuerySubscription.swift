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
/// let subscription = try QuerySubscription(json, namespace: namespace, service: service)
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

    /// Reads and checks a subscription dictionary of a request.
    init(_ value: JSONValue, namespace: Namespace, service: CloudKitService) async throws(ServerError) {
        guard case .object = value else { throw ServerError(.badRequest, "a subscription is an object, not \(value.kindName)") }
        guard let identifier = value["subscriptionID"]?.stringValue, !identifier.isEmpty else {
            throw ServerError(.badRequest, "a subscription needs a \"subscriptionID\" string")
        }
        guard identifier.utf8.count <= Self.longestIdentifier, !identifier.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw ServerError(.badRequest, "a subscriptionID has at most \(Self.longestIdentifier) bytes and no control characters")
        }
        switch value["subscriptionType"]?.stringValue ?? "query" {
        case "query": break
        case "zone": throw ServerError(.badRequest, "zone subscriptions are not supported by this server; subscribe with a query")
        case let other: throw ServerError(.badRequest, "subscriptionType is \"query\", not \"\(other.prefix(40))\"")
        }
        let query = try await service.recordQuery(value["query"])
        var reasons = Set<Reason>()
        guard let keywords = value["firesOn"]?.arrayValue, !keywords.isEmpty else {
            throw ServerError(.badRequest, "a query subscription needs \"firesOn\": some of \"create\", \"update\", \"delete\"")
        }
        for keyword in keywords {
            guard let reason = Reason.allCases.first(where: { $0.firesOnKeyword == keyword.stringValue }) else {
                throw ServerError(.badRequest, "firesOn holds \"create\", \"update\" or \"delete\", not \(keyword.kindName)")
            }
            reasons.insert(reason)
        }
        if let once = value["firesOnce"], !once.isNull, once.boolValue == nil { throw ServerError(.badRequest, "firesOnce is a boolean") }
        let zone = try await service.zone(from: value["zoneID"], in: namespace)

        subscriptionID = identifier
        recordType = query.recordType
        predicate = query.predicate
        self.zone = zone
        firesOn = reasons
        firesOnce = value["firesOnce"]?.boolValue ?? false
        var members: [String: JSONValue] = [
            "subscriptionID": .string(identifier),
            "subscriptionType": .string("query"),
            "query": value["query"] ?? .null,
            "firesOn": .array(Reason.allCases.filter(reasons.contains).map { .string($0.firesOnKeyword) }),
            "firesOnce": .bool(firesOnce),
            "zoneID": .object(["zoneName": .string(namespace.clientZoneName(zone) ?? zone.zoneName)]),
        ]
        if let info = value["notificationInfo"], !info.isNull { members["notificationInfo"] = info }
        json = .object(members)
    }

    /// Whether it fires for a reason.
    func fires(on reason: Reason) -> Bool { firesOn.contains(reason) }
}

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The subscription dictionary of a `subscriptions/modify` operation (and of a stored
/// subscription, read back through the same checks): `subscriptionID`, `subscriptionType`
/// (`query`, the default; `zone` is refused), `query` (``RecordQueryRequest``, also kept as sent),
/// `firesOn`, `firesOnce`, `zoneID` and `notificationInfo` (kept as sent). ``QuerySubscription``
/// checks the query against the store.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(SubscriptionRequest.self, from: json, at: "operations[0].subscription")
/// request.firesOn   // [.recordCreated]
/// ```
struct SubscriptionRequest: Decodable {
    let subscriptionID: String
    let query: RecordQueryRequest
    /// The `query` object as sent, answered back as it is.
    let queryJSON: JSONValue
    let firesOn: Set<QuerySubscription.Reason>
    let firesOnce: Bool
    let zoneID: ZoneIDRequest?
    let notificationInfo: JSONValue?

    private enum CodingKeys: String, CodingKey {
        case subscriptionID, subscriptionType, query, firesOn, firesOnce, zoneID, notificationInfo
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let identifier = try container.decode(String.self, forKey: .subscriptionID)
        let longest = QuerySubscription.longestIdentifier
        guard !identifier.isEmpty, identifier.utf8.count <= longest, !identifier.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw ServerError(.badRequest, "\(container.path(.subscriptionID)) has 1 to \(longest) bytes and no control characters")
        }
        subscriptionID = identifier
        switch try container.decodeIfPresent(String.self, forKey: .subscriptionType, expected: #""query""#) ?? "query" {
        case "query": break
        case "zone": throw ServerError(.badRequest, "zone subscriptions are not supported by this server; subscribe with a query")
        case let other: throw ServerError(.badRequest, "\(container.path(.subscriptionType)) is \"query\", not \"\(other.prefix(40))\"")
        }
        query = try container.decode(RecordQueryRequest.self, forKey: .query)
        queryJSON = try container.decode(SentJSON.self, forKey: .query).json
        let expected = #"an array of "create", "update" or "delete""#
        let keywords = try container.decode([SentJSON].self, forKey: .firesOn, expected: expected)
        guard !keywords.isEmpty else { throw ServerError(.badRequest, "\(container.path(.firesOn)) is empty; it is \(expected)") }
        var reasons = Set<QuerySubscription.Reason>()
        for (index, keyword) in keywords.enumerated() {
            guard let reason = QuerySubscription.Reason.allCases.first(where: { $0.firesOnKeyword == keyword.json.stringValue }) else {
                throw ServerError(.badRequest, "\(container.path(.firesOn))[\(index)] is \"create\", \"update\" or \"delete\", not \(keyword.json.kindName)")
            }
            reasons.insert(reason)
        }
        firesOn = reasons
        firesOnce = try container.decodeIfPresent(Bool.self, forKey: .firesOnce) ?? false
        zoneID = try container.decodeIfPresent(ZoneIDRequest.self, forKey: .zoneID)
        notificationInfo = try container.decodeIfPresent(SentJSON.self, forKey: .notificationInfo)?.json
    }
}
#endif

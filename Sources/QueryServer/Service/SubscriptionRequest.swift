// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The subscription dictionary of a `subscriptions/modify` operation (and of a stored
/// subscription, read back through the same checks): `subscriptionID`, `subscriptionType`
/// (`query`, the default; `zone`; or `database`), `zoneID`, `notificationInfo` (kept as sent),
/// and for a query subscription its `query` (``RecordQueryRequest``, also kept as sent),
/// `firesOn` and `firesOnce`. ``QuerySubscription`` and ``ChangeSubscription`` check it against
/// the namespace.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(SubscriptionRequest.self, from: json, at: "operations[0].subscription")
/// if case .query(let query) = request.kind { query.firesOn }   // [.recordCreated]
/// ```
struct SubscriptionRequest: Decodable {
    /// What a query subscription adds: its query and when it fires.
    struct Query {
        let query: RecordQueryRequest
        /// The `query` object as sent, answered back as it is.
        let queryJSON: JSONValue
        let firesOn: Set<QuerySubscription.Reason>
        let firesOnce: Bool
    }

    /// The subscription's type (`subscriptionType`).
    enum Kind {
        /// `query`: records of a type that match a filter, in a zone.
        case query(Query)
        /// `zone`: any change in one zone (`CKRecordZoneSubscription`).
        case zone
        /// `database`: any change in the database (`CKDatabaseSubscription`).
        case database
    }

    let subscriptionID: String
    let kind: Kind
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
        let types = #""query", "zone" or "database""#
        switch try container.decodeIfPresent(String.self, forKey: .subscriptionType, expected: types) ?? "query" {
        case "query": kind = .query(try Self.query(container))
        case "zone": kind = .zone
        case "database": kind = .database
        case let other: throw ServerError(.badRequest, "\(container.path(.subscriptionType)) is \(types), not \"\(other.prefix(40))\"")
        }
        zoneID = try container.decodeIfPresent(ZoneIDRequest.self, forKey: .zoneID)
        notificationInfo = try container.decodeIfPresent(SentJSON.self, forKey: .notificationInfo)?.json
    }

    /// The query, `firesOn` and `firesOnce` of a query subscription.
    private static func query(_ container: KeyedDecodingContainer<CodingKeys>) throws -> Query {
        let query = try container.decode(RecordQueryRequest.self, forKey: .query)
        let queryJSON = try container.decode(SentJSON.self, forKey: .query).json
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
        return Query(
            query: query, queryJSON: queryJSON, firesOn: reasons, firesOnce: try container.decodeIfPresent(Bool.self, forKey: .firesOnce) ?? false)
    }
}
#endif

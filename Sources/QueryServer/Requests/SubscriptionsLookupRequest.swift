// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `subscriptions/lookup`: `subscriptions`, at most 200 of `{subscriptionID}`.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(SubscriptionsLookupRequest.self, from: ["subscriptions": [["subscriptionID": "big-cities"]]])
/// request.subscriptionIDs   // ["big-cities"]
/// ```
struct SubscriptionsLookupRequest: Decodable {
    /// One subscription named (to look up, or to delete).
    struct Entry: Decodable {
        let subscriptionID: String
    }

    let subscriptionIDs: [String]

    private enum CodingKeys: String, CodingKey {
        case subscriptions
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decodeBatch([Entry].self, forKey: .subscriptions, maximumCount: RequestLimits.maximumBatch)
        subscriptionIDs = entries.map(\.subscriptionID)
    }
}
#endif

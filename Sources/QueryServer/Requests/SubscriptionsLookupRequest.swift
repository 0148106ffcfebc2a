// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `subscriptions/lookup`: `subscriptions`, at most 200 of `{subscriptionID}`.
///
/// ```swift
/// let request = try SubscriptionsLookupRequest(body: ["subscriptions": [["subscriptionID": "big-cities"]]])
/// request.subscriptionIDs   // ["big-cities"]
/// ```
struct SubscriptionsLookupRequest: RequestDecodable {
    /// One subscription to look up.
    struct Entry: RequestDecodable {
        let subscriptionID: String

        init(_ object: RequestObject) throws(ServerError) {
            subscriptionID = try object.requiredString("subscriptionID")
        }
    }

    let subscriptionIDs: [String]

    init(_ object: RequestObject) throws(ServerError) {
        let entries: [Entry] = try object.decodeRequiredArray("subscriptions", maximumCount: RequestLimits.maximumBatch)
        subscriptionIDs = entries.map(\.subscriptionID)
    }
}
#endif

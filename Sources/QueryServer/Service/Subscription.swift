// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// A subscription of any type, as `subscriptions/modify` takes it and ``SubscriptionStorage``
/// keeps it: a query subscription (``QuerySubscription``), or a zone or database one
/// (``ChangeSubscription``).
///
/// ```swift
/// let subscription = try await Subscription(json, path: "operations[0].subscription", namespace: namespace, service: service)
/// subscription.json   // as answered and stored
/// ```
enum Subscription: Sendable {
    case query(QuerySubscription)
    case change(ChangeSubscription)

    /// Reads and checks a subscription dictionary of a request (at `path`, for errors), against
    /// the namespace: the query subscriptions are refused in a shared database, the zone and
    /// database ones in the public database.
    init(_ value: JSONValue, path: String, namespace: Namespace, service: CloudKitService) async throws(ServerError) {
        let request = try RequestBodyDecoder.decode(SubscriptionRequest.self, from: value, at: path)
        switch request.kind {
        case .query(let query):
            if case .shared = namespace.database {
                throw ServerError(.badRequest, "the shared database takes database subscriptions only (its zones come and go with the shares); subscribe with subscriptionType \"database\"")
            }
            self = .query(try await QuerySubscription(request, query: query, namespace: namespace, service: service))
        case .zone:
            self = .change(try await ChangeSubscription(request, watching: .zone, namespace: namespace, service: service))
        case .database:
            self = .change(try await ChangeSubscription(request, watching: .database, namespace: namespace, service: service))
        }
    }

    var subscriptionID: String {
        switch self {
        case .query(let subscription): subscription.subscriptionID
        case .change(let subscription): subscription.subscriptionID
        }
    }

    /// The subscription dictionary, as answered (and stored).
    var json: JSONValue {
        switch self {
        case .query(let subscription): subscription.json
        case .change(let subscription): subscription.json
        }
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `subscriptions/modify`: `operations` (at most 200), each an ``Operation``. An
/// operation that does not decode fails alone (its entry of the answer is the error), so the
/// operations are decoded one by one as they are applied (``operation(_:)``).
///
/// ```swift
/// let request = try SubscriptionsModifyRequest(body: ["operations": [["operationType": "delete", "subscription": ["subscriptionID": "s1"]]]])
/// try request.operation(0).operationType   // .delete
/// ```
struct SubscriptionsModifyRequest: RequestDecodable {
    /// One operation: `{operationType: "create" | "update" | "delete", subscription}`.
    struct Operation: RequestDecodable {
        enum Kind: String {
            case create, update, delete
        }

        let operationType: Kind
        /// The subscription dictionary (read by ``QuerySubscription``, or for a deletion only its ID).
        let subscription: JSONValue
        /// Where the subscription is in the body (`operations[0].subscription`).
        let subscriptionPath: String

        init(_ object: RequestObject) throws(ServerError) {
            let expected = #""create", "update" or "delete""#
            let typeName = try object.requiredString("operationType", expected)
            guard let kind = Kind(rawValue: typeName) else {
                throw ServerError(.badRequest, "\(object.path("operationType")) is \(expected), not \"\(typeName.prefix(40))\"")
            }
            operationType = kind
            subscriptionPath = object.path("subscription")
            subscription = try object.required("subscription", "an object")
        }
    }

    /// The operations as sent, each decoded by ``operation(_:)``.
    let operations: [JSONValue]

    init(_ object: RequestObject) throws(ServerError) {
        operations = try object.requiredArray("operations", "an array of {operationType, subscription}", maximumCount: RequestLimits.maximumBatch)
    }

    /// The operation at `index`, decoded.
    func operation(_ index: Int) throws(ServerError) -> Operation {
        try Operation(RequestObject(operations[index], path: "operations[\(index)]"))
    }
}
#endif

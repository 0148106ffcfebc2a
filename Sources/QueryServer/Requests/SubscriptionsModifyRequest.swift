// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `subscriptions/modify`: `operations` (at most 200), each an ``Operation``. An
/// operation that does not decode fails alone (its entry of the answer is the error), so the
/// operations are decoded one by one as they are applied (``operation(_:)``).
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(SubscriptionsModifyRequest.self, from: ["operations": [["operationType": "delete", "subscription": ["subscriptionID": "s1"]]]])
/// try request.operation(0).operationType   // .delete
/// ```
struct SubscriptionsModifyRequest: Decodable {
    /// One operation: `{operationType: "create" | "update" | "delete", subscription}`.
    struct Operation: Decodable {
        enum Kind: String {
            case create, update, delete
        }

        let operationType: Kind
        /// The subscription dictionary (read by ``QuerySubscription``, or for a deletion only its ID).
        let subscription: JSONValue
        /// Where the subscription is in the body (`operations[0].subscription`).
        let subscriptionPath: String

        private enum CodingKeys: String, CodingKey {
            case operationType, subscription
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let expected = #""create", "update" or "delete""#
            let typeName = try container.decode(String.self, forKey: .operationType, expected: expected)
            guard let kind = Kind(rawValue: typeName) else {
                throw ServerError(.badRequest, "\(container.path(.operationType)) is \(expected), not \"\(typeName.prefix(40))\"")
            }
            operationType = kind
            subscriptionPath = container.path(.subscription)
            subscription = try container.decode(SentJSON.self, forKey: .subscription, expected: "an object").json
        }
    }

    /// The operations as sent, each decoded by ``operation(_:)``.
    let operations: [JSONValue]

    private enum CodingKeys: String, CodingKey {
        case operations
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        operations = try container.decodeBatch([SentJSON].self, forKey: .operations, maximumCount: RequestLimits.maximumBatch,
                                               expected: "an array of {operationType, subscription}").map(\.json)
    }

    /// The operation at `index`, decoded.
    func operation(_ index: Int) throws(ServerError) -> Operation {
        try RequestBodyDecoder.decode(Operation.self, from: operations[index], at: "operations[\(index)]")
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of this server's `predicates/check`: `predicate` (an NSPredicate format string),
/// `arguments` (in the JSON mapping of `query.arguments`), `rules` (`cloudkit`, `full` or
/// `coredata`; absent, the server's) and `recordType` (absent: the predicate is not checked
/// against a schema).
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(PredicateCheckRequest.self, from: ["predicate": "name == %@", "arguments": ["Paris"], "rules": "full"])
/// request.rules   // .full
/// ```
struct PredicateCheckRequest: Decodable {
    let predicate: String
    let arguments: [Value]
    /// The rule profile asked for; nil for the server's.
    let rules: PredicateRules?
    /// The record type whose schema the predicate is checked against; nil for none.
    let recordType: String?

    private enum CodingKeys: String, CodingKey {
        case predicate, recordType, arguments, rules
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        predicate = try container.decode(String.self, forKey: .predicate, expected: "an NSPredicate format string")
        recordType = try container.decodeIfPresent(String.self, forKey: .recordType, expected: "a record type name")
        arguments = try container.decodeIfPresent([TypedJSON].self, forKey: .arguments)?.map(\.value) ?? []
        let expected = #""cloudkit", "full" or "coredata""#
        if let name = try container.decodeIfPresent(String.self, forKey: .rules, expected: expected) {
            guard let rules = PredicateRules.allCases.first(where: { $0.requestName == name.lowercased() }) else {
                throw ServerError(.badRequest, "\(container.path(.rules)) is \(expected)")
            }
            self.rules = rules
        } else {
            rules = nil
        }
    }
}
#endif

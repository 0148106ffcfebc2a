// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of this server's `predicates/check`: `predicate` (an NSPredicate format string),
/// `arguments` (in the JSON mapping of `query.arguments`), `rules` (`cloudkit`, `full` or
/// `coredata`; absent, the server's) and `recordType` (absent: the predicate is not checked
/// against a schema).
///
/// ```swift
/// let request = try PredicateCheckRequest(body: ["predicate": "name == %@", "arguments": ["Paris"], "rules": "full"])
/// request.rules   // .full
/// ```
struct PredicateCheckRequest: RequestDecodable {
    let predicate: String
    let arguments: [Value]
    /// The rule profile asked for; nil for the server's.
    let rules: PredicateRules?
    /// The record type whose schema the predicate is checked against; nil for none.
    let recordType: String?

    init(_ object: RequestObject) throws(ServerError) {
        predicate = try object.requiredString("predicate", "an NSPredicate format string")
        recordType = try object.string("recordType", "a record type name")
        arguments = try TypedJSON.values(object, "arguments")
        let expected = #""cloudkit", "full" or "coredata""#
        if let name = try object.string("rules", expected) {
            guard let rules = PredicateRules.allCases.first(where: { $0.requestName == name.lowercased() }) else {
                throw ServerError(.badRequest, "\(object.path("rules")) is \(expected)")
            }
            self.rules = rules
        } else {
            rules = nil
        }
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `users/discover` (`lookupInfos`: `{emailAddress}`, `{userRecordName}` or
/// `{phoneNumber}` each), `users/lookup/email` (`users`: `{emailAddress}` each) and
/// `users/lookup/id` (`users`: `{userRecordName}` each), as CloudKit's reference gives them.
///
/// ```swift
/// let request = try UserLookupRequest(body: ["lookupInfos": [["emailAddress": "ada@example.org"]]], member: "lookupInfos")
/// request.lookups.first?.emailAddress   // "ada@example.org"
/// ```
struct UserLookupRequest {
    /// One user asked for, as the request names them.
    struct Lookup {
        var emailAddress: String?
        var userRecordName: String?
        var phoneNumber: String?
        /// The lookup as sent, which `users/discover` answers each found user with.
        let json: JSONValue
    }

    /// The most users one request may ask for.
    static let maximumCount = 200

    let lookups: [Lookup]

    /// The lookups of a body's `member` array.
    init(body: JSONValue, member: String) throws(ServerError) {
        let object = try RequestObject(body, path: "")
        var lookups: [Lookup] = []
        for (index, element) in try object.requiredArray(member, maximumCount: Self.maximumCount).enumerated() {
            let lookup = try RequestObject(element, path: "\(member)[\(index)]")
            let found = Lookup(emailAddress: try lookup.string("emailAddress"), userRecordName: try lookup.string("userRecordName"),
                               phoneNumber: try lookup.string("phoneNumber"), json: element)
            guard found.emailAddress != nil || found.userRecordName != nil || found.phoneNumber != nil else {
                throw ServerError(.badRequest, "\(member)[\(index)] names no user (emailAddress, userRecordName or phoneNumber)")
            }
            lookups.append(found)
        }
        self.lookups = lookups
    }
}
#endif

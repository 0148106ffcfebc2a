// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `roles/assign` and `roles/remove`: `role`, a custom role the schema declares
/// (`CREATE ROLE`), and the user, by `userRecordName` or by `emailAddress` (one of the two).
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(RoleChangeRequest.self, from: ["role": "Moderator", "userRecordName": "_3f9c…"])
/// request.role   // "Moderator"
/// ```
struct RoleChangeRequest: Decodable {
    /// The role given or taken.
    let role: String
    /// The user, by record name; nil when named by email address.
    let userRecordName: String?
    /// The user, by email address; nil when named by record name.
    let emailAddress: String?

    private enum CodingKeys: String, CodingKey { case role, userRecordName, emailAddress }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        role = try container.decode(String.self, forKey: .role, expected: "the name of a role the schema declares (CREATE ROLE)")
        userRecordName = try container.decodeIfPresent(String.self, forKey: .userRecordName, expected: "a user's record name")
        emailAddress = try container.decodeIfPresent(String.self, forKey: .emailAddress, expected: "a user's email address")
        guard (userRecordName == nil) != (emailAddress == nil) else {
            throw ServerError(.badRequest, userRecordName == nil
                ? "userRecordName is missing (the user's record name; or emailAddress, the user's email address)"
                : "name the user once: by userRecordName or by emailAddress, not both")
        }
    }
}
#endif

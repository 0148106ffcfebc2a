// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// One user a user route asks for, as CloudKit's user identity lookup information dictionary
/// names them: `emailAddress`, `userRecordName` or `phoneNumber`.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(UserDiscoverRequest.self, from: ["lookupInfos": [["emailAddress": "ada@example.org"]]])
/// request.lookupInfos.first?.emailAddress   // "ada@example.org"
/// ```
struct UserLookup: Decodable, JSONExpectation {
    static var expectation: String { "an object (emailAddress, userRecordName or phoneNumber)" }
    static var arrayExpectation: String { "an array of objects" }

    let emailAddress: String?
    let userRecordName: String?
    let phoneNumber: String?
    /// The lookup as sent, which `users/discover` answers each found user with.
    let json: JSONValue

    private enum CodingKeys: String, CodingKey { case emailAddress, userRecordName, phoneNumber }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        emailAddress = try container.decodeIfPresent(String.self, forKey: .emailAddress)
        userRecordName = try container.decodeIfPresent(String.self, forKey: .userRecordName)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        json = try SentJSON(from: decoder).json
        guard emailAddress != nil || userRecordName != nil || phoneNumber != nil else {
            throw ServerError(.badRequest, "\(decoder.codingPath.jsonPath) names no user (emailAddress, userRecordName or phoneNumber)")
        }
    }
}

/// The body of `users/discover`: `lookupInfos`, at most 200 ``UserLookup``s.
struct UserDiscoverRequest: Decodable {
    let lookupInfos: [UserLookup]

    private enum CodingKeys: String, CodingKey { case lookupInfos }

    init(from decoder: any Decoder) throws {
        lookupInfos = try decoder.container(keyedBy: CodingKeys.self).decodeBatch([UserLookup].self, forKey: .lookupInfos, maximumCount: 200)
    }
}

/// The body of `users/lookup/email` and `users/lookup/id`: `users`, at most 200 ``UserLookup``s.
struct UserLookupRequest: Decodable {
    let users: [UserLookup]

    private enum CodingKeys: String, CodingKey { case users }

    init(from decoder: any Decoder) throws {
        users = try decoder.container(keyedBy: CodingKeys.self).decodeBatch([UserLookup].self, forKey: .users, maximumCount: 200)
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The user routes' answers, as CloudKit's reference shapes them. Only users who chose to be
/// discoverable are ever found; a lookup that finds nobody is left out of the answer.
///
/// | route | asks with | answers `users` as |
/// |---|---|---|
/// | `users/discover` | `lookupInfos`: email address or record name | user identities (`userRecordName`, `nameComponents`, `lookupInfo`) |
/// | `users/lookup/email` | `users`: `{emailAddress}` | user dictionaries (`userRecordName`, `firstName`, `lastName`, `emailAddress`) |
/// | `users/lookup/id` | `users`: `{userRecordName}` | user dictionaries without `emailAddress` |
///
/// ```swift
/// let answer = try await directory.discover(["lookupInfos": [["emailAddress": "ada@example.org"]]])
/// ```
extension UserDirectory {
    /// `users/discover`: the identities of the discoverable users the lookups name.
    func discover(_ body: JSONValue) async throws(ServerError) -> JSONValue {
        var users: [JSONValue] = []
        for lookup in try RequestBodyDecoder.decode(UserDiscoverRequest.self, from: body).lookupInfos {
            if let user = try await discoverable(lookup) { users.append(user.identityDictionary(lookupInfo: lookup.json)) }
        }
        return .object(["users": .array(users)])
    }

    /// `users/lookup/email`: the discoverable users of the email addresses given.
    func lookUpByEmail(_ body: JSONValue) async throws(ServerError) -> JSONValue {
        var users: [JSONValue] = []
        for (index, lookup) in try RequestBodyDecoder.decode(UserLookupRequest.self, from: body).users.enumerated() {
            guard lookup.emailAddress != nil else { throw ServerError(.badRequest, "users[\(index)].emailAddress is missing (a string)") }
            if let user = try await discoverable(lookup) { users.append(user.userDictionary(withEmail: true)) }
        }
        return .object(["users": .array(users)])
    }

    /// `users/lookup/id`: the discoverable users of the record names given.
    func lookUpByRecordName(_ body: JSONValue) async throws(ServerError) -> JSONValue {
        var users: [JSONValue] = []
        for (index, lookup) in try RequestBodyDecoder.decode(UserLookupRequest.self, from: body).users.enumerated() {
            guard lookup.userRecordName != nil else { throw ServerError(.badRequest, "users[\(index)].userRecordName is missing (a string)") }
            if let user = try await discoverable(lookup) { users.append(user.userDictionary(withEmail: false)) }
        }
        return .object(["users": .array(users)])
    }

    /// `users/caller` and `users/current` of a signed-in user: the user as kept.
    func signedInUser(_ userRecordName: String) async throws(ServerError) -> ServerUser {
        guard let user = try await user(named: userRecordName) else {
            throw ServerError(.authenticationRequired, "the signed-in user \(userRecordName) no longer exists; sign in again")
        }
        return user
    }

    /// The discoverable user a lookup names (by record name first, then email address), or nil.
    /// Phone numbers are not kept: a lookup by phone number alone finds nobody.
    private func discoverable(_ lookup: UserLookup) async throws(ServerError) -> ServerUser? {
        var found: ServerUser?
        if let name = lookup.userRecordName {
            found = try await user(named: name)
        } else if let email = lookup.emailAddress {
            found = try await user(emailAddress: email)
        }
        guard let found, found.isDiscoverable else { return nil }
        return found
    }
}
#endif

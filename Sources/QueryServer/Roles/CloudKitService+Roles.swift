// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

extension CloudKitService {
    /// `roles/list`: every custom role the store's security policy declares, in the order
    /// declared, each with the users who hold it (by record name, with the email address of a
    /// user the server knows), a role nobody holds too.
    ///
    /// The roles are the environment's: its store keeps its own policy and holders, which the
    /// public database's grants are checked against. Other databases have none (`BAD_REQUEST`).
    ///
    /// ```swift
    /// let answer = try await service.listRoles(in: Namespace(environment: .production, database: .public))
    /// // {"roles": [{"name": "Moderator", "users": [{"userRecordName": "_3f9c…", "emailAddress": "ada@example.org"}]}]}
    /// ```
    public func listRoles(in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let store = try await rolesStore(for: namespace)
        let (policy, assignments) = try await run { () async throws(RecordStoreError) in
            (try await store.securityPolicy(), try await store.roleAssignments())
        }
        var entries: [JSONValue] = []
        for role in policy.roles { entries.append(try await roleJSON(role, holders: assignments[role] ?? [])) }
        return .object(["roles": .array(entries)])
    }

    /// `roles/assign`: gives a user (`userRecordName`, or `emailAddress`, of a user the server
    /// knows: `NOT_FOUND` otherwise) a declared role (`BAD_REQUEST` naming the declared ones
    /// otherwise), and answers the role's entry as `roles/list` does. Giving it again changes
    /// nothing. It holds at once for every server over the store.
    ///
    /// ```swift
    /// let entry = try await service.assignRole(["role": "Moderator", "emailAddress": "ada@example.org"], in: namespace)
    /// // {"name": "Moderator", "users": [{"userRecordName": "_3f9c…", "emailAddress": "ada@example.org"}]}
    /// ```
    public func assignRole(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let store = try await rolesStore(for: namespace)
        let request = try RequestBodyDecoder.decode(RoleChangeRequest.self, from: body)
        let directory = UserDirectory(store: self.store)
        let user: ServerUser?
        if let name = request.userRecordName {
            user = try await directory.user(named: name)
        } else {
            user = try await directory.user(emailAddress: request.emailAddress ?? "")
        }
        guard let user else {
            let named = request.userRecordName.map { "no user is named '\($0)'" } ?? "no user has the email address '\(request.emailAddress ?? "")'"
            throw ServerError(.notFound, named + " (see query users list)")
        }
        try await run { () async throws(RecordStoreError) in try await store.assignRole(request.role, to: user.userRecordName) }
        return try await roleEntry(request.role, in: store)
    }

    /// `roles/remove`: takes a declared role from a user (`userRecordName`, known to the server
    /// or not, so that a departed user's role can be taken; or `emailAddress`), and answers the
    /// role's entry as `roles/list` does. Taking a role the user does not hold changes nothing.
    ///
    /// ```swift
    /// let entry = try await service.removeRole(["role": "Moderator", "userRecordName": "_3f9c…"], in: namespace)
    /// // {"name": "Moderator", "users": []}
    /// ```
    public func removeRole(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let store = try await rolesStore(for: namespace)
        let request = try RequestBodyDecoder.decode(RoleChangeRequest.self, from: body)
        let declared = try await run { () async throws(RecordStoreError) in try await store.securityPolicy().roles }
        guard declared.contains(request.role) else { throw Self.serverError(.unknownRole(request.role, declaredRoles: declared)) }
        let name: String
        if let userRecordName = request.userRecordName {
            name = userRecordName
        } else {
            let email = request.emailAddress ?? ""
            guard let user = try await UserDirectory(store: self.store).user(emailAddress: email) else {
                throw ServerError(.notFound, "no user has the email address '\(email)' (see query users list)")
            }
            name = user.userRecordName
        }
        try await run { () async throws(RecordStoreError) in try await store.removeRole(request.role, from: name) }
        return try await roleEntry(request.role, in: store)
    }

    /// The store that keeps a namespace's roles: its environment's (the public database only).
    private func rolesStore(for namespace: Namespace) async throws(ServerError) -> Store {
        switch namespace.database {
        case .public: break
        case .private: throw ServerError(.badRequest, "security roles are the public database's: the private database has none")
        case .shared: throw ServerError(.badRequest, "security roles are the public database's: the shared database has none")
        }
        return try await bookkeepingStore(for: namespace.environment)
    }

    /// A role's entry as it now stands in a store.
    private func roleEntry(_ role: String, in store: Store) async throws(ServerError) -> JSONValue {
        let holders = try await run { () async throws(RecordStoreError) in try await store.roleAssignments()[role] ?? [] }
        return try await roleJSON(role, holders: holders)
    }

    /// A role's entry: `name`, and `users` (`userRecordName`, and `emailAddress` when known) in
    /// record-name order.
    private func roleJSON(_ role: String, holders: [String]) async throws(ServerError) -> JSONValue {
        let directory = UserDirectory(store: store)
        var users: [JSONValue] = []
        for holder in holders.sorted() {
            var user: [String: JSONValue] = ["userRecordName": .string(holder)]
            if let email = try await directory.user(named: holder)?.emailAddress { user["emailAddress"] = .string(email) }
            users.append(.object(user))
        }
        return .object(["name": .string(role), "users": .array(users)])
    }
}
#endif

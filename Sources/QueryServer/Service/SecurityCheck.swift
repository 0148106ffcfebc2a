// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// The security roles one request is held to: the store's ``SecurityPolicy`` as it stands when
/// the request arrives (read from the store, so that a `.ckdb` applied or a role assigned on any
/// server holds for the next request), and the caller as a ``SecurityPrincipal`` with the custom
/// roles they hold.
///
/// ```swift
/// if let check = try await service.securityCheck(for: principal, in: store) {
///     guard check.mayCreate("Note") else { throw check.denial(.create, recordType: "Note") }
/// }
/// ```
struct SecurityCheck: Sendable {
    let policy: SecurityPolicy
    let principal: SecurityPrincipal

    /// Which records of a type the caller reads.
    func readAccess(to recordType: String) -> RecordAccess {
        policy.access(.read, to: recordType, for: principal)
    }

    /// Whether the caller reads a record.
    func mayRead(_ record: Record) -> Bool {
        policy.allows(.read, on: record.recordType, createdBy: record.creatorUserRecordName, for: principal)
    }

    /// Whether the caller creates records of a type.
    func mayCreate(_ recordType: String) -> Bool {
        policy.allows(.create, on: recordType, createdBy: principal.userRecordName, for: principal)
    }

    /// Whether the caller changes or deletes a stored record.
    func mayWrite(_ stored: Record) -> Bool {
        policy.allows(.write, on: stored.recordType, createdBy: stored.creatorUserRecordName, for: principal)
    }

    /// Why a permission is refused: the record type, the permission, and who it is granted to
    /// (``SecurityPolicy/refusal(_:on:for:recordName:)``).
    func reason(_ permission: CloudKitSchemaPermission, recordType: String, recordName: String? = nil) -> String {
        policy.refusal(permission, on: recordType, for: principal, recordName: recordName)
    }

    /// The `ACCESS_DENIED` error of a refused permission.
    func denial(_ permission: CloudKitSchemaPermission, recordType: String) -> ServerError {
        ServerError(.accessDenied, reason(permission, recordType: recordType))
    }
}

extension CloudKitService {
    /// The security check of a request's principal over a store, or nil when grants do not hold
    /// it (a key, a private database, the service's own calls). The custom roles a user holds
    /// are read only when some grant names a custom role.
    func securityCheck(for principal: RequestPrincipal, in store: Store) async throws(ServerError) -> SecurityCheck? {
        guard principal.followsSecurityRoles else { return nil }
        let policy = try await run { () async throws(RecordStoreError) in try await store.securityPolicy() }
        var roles: Set<String> = []
        if let user = principal.userRecordName, !policy.grantedCustomRoles.isEmpty {
            roles = try await run { () async throws(RecordStoreError) in try await store.roles(of: user) }
        }
        return SecurityCheck(policy: policy, principal: principal.securityPrincipal(roles: roles))
    }
}
#endif

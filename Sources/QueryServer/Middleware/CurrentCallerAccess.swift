// Part of the Server trait: without it, this module is empty.
#if Server
import Synchronization

/// The caller access a running server answers with now: what its configuration started with,
/// until a reload (``CloudKitServer/reloadCallerAccess()``, on SIGHUP) replaces it. Every request
/// reads it once, so a reload holds from the next request on, on connections already open too.
///
/// The administrator token (``ServerConfiguration/administratorToken``) stays as started.
///
/// ```swift
/// let current = CurrentCallerAccess(CallerAccess(credentials: credentials), privateUsers: [:])
/// let authenticator = current.snapshot.authenticator
/// ```
final class CurrentCallerAccess: Sendable {
    /// One consistent state: the access, and what is derived from it.
    struct Snapshot: Sendable {
        let access: CallerAccess
        /// Checks keys and tokens against ``access``'s credentials.
        let authenticator: RequestAuthenticator
        /// The private database user of each key ID (``PrivateDatabaseUser``).
        let privateUsers: [String: String]
        /// The allowed origins, normalized (``CrossOriginMiddleware/normalized(_:)``).
        let normalizedOrigins: Set<String>

        init(_ access: CallerAccess, privateUsers: [String: String], administratorToken: String?) {
            self.access = access
            self.privateUsers = privateUsers
            authenticator = RequestAuthenticator(credentials: access.credentials, administratorToken: administratorToken)
            normalizedOrigins = Set(access.allowedOrigins.map(CrossOriginMiddleware.normalized))
        }
    }

    private let state: Mutex<Snapshot>
    private let administratorToken: String?

    init(_ access: CallerAccess, privateUsers: [String: String], administratorToken: String? = nil) {
        self.administratorToken = administratorToken
        state = Mutex(Snapshot(access, privateUsers: privateUsers, administratorToken: administratorToken))
    }

    /// The access now.
    var snapshot: Snapshot { state.withLock { $0 } }

    /// Replaces the access for every request from now on.
    func replace(_ access: CallerAccess, privateUsers: [String: String]) {
        let snapshot = Snapshot(access, privateUsers: privateUsers, administratorToken: administratorToken)
        state.withLock { $0 = snapshot }
    }
}
#endif

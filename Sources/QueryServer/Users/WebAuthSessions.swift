// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// Signed-in users' sessions, and the web auth tokens (`ckWebAuthToken`) that carry them.
///
/// A token is opaque to clients: the store's signature (the key cursors are signed with, so
/// every server over one store takes every other's tokens, across restarts) over the container,
/// the session, the user, the session's turn and an expiry. Each session is a record of the
/// type `QueryServerSession` in the zone `users/sessions`, holding its user, its current turn
/// and when that turn began.
///
/// Each request with the session's current token moves the session to its next turn, and the
/// answer carries the next turn's token (``CloudKitServer``'s `X-Apple-CloudKit-Web-Auth-Token`);
/// the previous turn's token keeps working for ``WebAuthConfiguration/rotationGrace`` seconds
/// (CloudKit JS sends requests in parallel with one token), and answers with the current token.
/// A session ends ``WebAuthConfiguration/sessionLifetime`` after its last request (or
/// ``WebAuthConfiguration/keepSignedInLifetime``), or when it is revoked
/// (``revokeAll(userRecordName:)``, `query users revoke`). A user's ended sessions are removed
/// when they open a new one.
///
/// ```swift
/// let sessions = WebAuthSessions(store: store)
/// let token = try await sessions.open(userRecordName: ada.userRecordName, container: "iCloud.com.example.notes")
/// // GET .../public/users/caller?ckAPIToken=...&ckWebAuthToken=<token>
/// ```
public struct WebAuthSessions: Sendable {
    /// The zone sessions are kept in.
    static let zone = ZoneID(zoneName: "users/sessions")
    /// The record type of a session.
    static let recordType = "QueryServerSession"
    /// What the store's signature of a token is made for (no other token opens as one).
    static let purpose = "web-auth"

    /// The served store.
    let store: Store
    /// How long sessions last, and the grace of a replaced token.
    let configuration: WebAuthConfiguration

    /// The sessions of a store.
    public init(store: Store, configuration: WebAuthConfiguration = WebAuthConfiguration()) {
        self.store = store
        self.configuration = configuration
    }

    /// A session's state, as its record keeps it.
    struct Session {
        let sessionID: String
        let userRecordName: String
        let container: String
        /// The session's current turn: its token is the only one that moves it on.
        var turn: Int64
        /// When the current turn began (its token was first handed out).
        var turnStarted: Date
        /// When the session ends unless used again (whole seconds, so that a turn's token is
        /// the same each time it is made).
        var expires: Date
        let keepsSignedIn: Bool
        /// The record's change tag, to move on only from the turn read.
        var changeTag: String?
    }

    /// The user a token signed in and the token the answer carries.
    struct Authentication: Equatable {
        let userRecordName: String
        let nextToken: String
    }

    /// Opens a session for a user (who must exist in ``UserDirectory``) and returns its first token.
    ///
    /// ```swift
    /// let token = try await sessions.open(userRecordName: name, container: "iCloud.com.example.notes", keepsSignedIn: true)
    /// ```
    public func open(userRecordName: String, container: String, keepsSignedIn: Bool = false, now: Date = Date()) async throws(ServerError) -> String {
        guard try await UserDirectory(store: store).user(named: userRecordName) != nil else {
            throw ServerError(.notFound, "no user is named \(userRecordName)")
        }
        try await CloudKitService.run { () async throws(RecordStoreError) in
            try await store.createZone(Self.zone)
            if try await store.schema(for: Self.recordType) == nil { try await store.define(Self.schema) }
        }
        let session = Session(sessionID: ServerUser.newRecordName().dropFirst().description, userRecordName: userRecordName,
                              container: container, turn: 1, turnStarted: now, expires: expiry(after: now, keepsSignedIn: keepsSignedIn),
                              keepsSignedIn: keepsSignedIn, changeTag: nil)
        try await save(session)
        try await removeEnded(userRecordName: userRecordName, now: now)
        return turnToken(of: session)
    }

    /// Removes the user's sessions that ended (their records would otherwise stay for good).
    private func removeEnded(userRecordName: String, now: Date) async throws(ServerError) {
        let ended = try await sessionRecords(of: userRecordName).filter { record in
            if case .date(let expires)? = record["expires"] { return expires <= now }
            return true
        }
        guard !ended.isEmpty else { return }
        try await CloudKitService.run { () async throws(RecordStoreError) in try await store.delete(ended.map(\.recordID)) }
    }

    /// The session records of a user.
    private func sessionRecords(of userRecordName: String) async throws(ServerError) -> [Record] {
        let predicate: FormatPredicate
        do {
            predicate = try FormatPredicate(format: "user == %@", argumentArray: [.string(userRecordName)])
        } catch {
            throw ServerError(.internalError, "the session lookup could not be written: \(error)")
        }
        return try await CloudKitService.run { () async throws(RecordStoreError) -> [Record] in
            do throws(RecordStoreError) {
                return try await store.records(ofType: Self.recordType, matching: predicate, zone: Self.zone)
            } catch .zoneNotFound, .unknownRecordType {
                return []
            }
        }
    }

    /// Ends every session of a user: their tokens stop working on every server. Returns how many ended.
    ///
    /// ```swift
    /// try await sessions.revokeAll(userRecordName: name)   // 2
    /// ```
    @discardableResult
    public func revokeAll(userRecordName: String) async throws(ServerError) -> Int {
        let records = try await sessionRecords(of: userRecordName)
        guard !records.isEmpty else { return 0 }
        try await CloudKitService.run { () async throws(RecordStoreError) in try await store.delete(records.map(\.recordID)) }
        return records.count
    }

    /// Checks a token sent to a container: the user it signs in, and the token the answer
    /// carries (the session's next turn). `AUTHENTICATION_FAILED` for a token this store did not
    /// sign or another container's; `AUTHENTICATION_REQUIRED` for a session that ended (expired,
    /// revoked, or a token replaced longer ago than the grace): the user signs in again.
    func authenticate(_ token: String, container: String, now: Date = Date()) async throws(ServerError) -> Authentication {
        let fields: [String]
        do {
            fields = try store.cursorSigner.openToken(token, purpose: Self.purpose, now: now)
        } catch .expired {
            throw ServerError(.authenticationRequired, "the web auth token has expired; sign in again")
        } catch {
            throw ServerError(.authenticationFailed, "ckWebAuthToken is not a token of this server: \(error)")
        }
        guard fields.count == 4, let turn = Int64(fields[3]) else { throw ServerError(.authenticationFailed, "ckWebAuthToken is malformed") }
        guard fields[0] == container else {
            throw ServerError(.authenticationFailed, "ckWebAuthToken was made for another container than '\(container.prefix(80))'")
        }
        var session = try await self.session(fields[1])
        for _ in 0..<3 {
            guard let current = session, current.userRecordName == fields[2], current.expires > now else {
                throw ServerError(.authenticationRequired, "the session of this web auth token has ended (signed out or revoked); sign in again")
            }
            if turn == current.turn - 1, now.timeIntervalSince(current.turnStarted) <= configuration.rotationGrace {
                return Authentication(userRecordName: current.userRecordName, nextToken: turnToken(of: current))
            }
            guard turn == current.turn else {
                throw ServerError(.authenticationRequired, "this web auth token was replaced by a newer one; sign in again")
            }
            var next = current
            next.turn += 1
            next.turnStarted = now
            next.expires = expiry(after: now, keepsSignedIn: current.keepsSignedIn)
            do throws(ServerError) {
                try await save(next)
                return Authentication(userRecordName: current.userRecordName, nextToken: turnToken(of: next))
            } catch where error.code == .conflict {
                // A parallel request moved the session on first: check against the turn it made.
                session = try await self.session(current.sessionID)
            }
        }
        throw ServerError(.tryAgainLater, "the session is changing too fast; retry", retryAfter: 1)
    }

    /// The token of a session's current turn (the same text each time it is made).
    func turnToken(of session: Session) -> String {
        store.cursorSigner.signToken(purpose: Self.purpose, fields: [session.container, session.sessionID, session.userRecordName, String(session.turn)],
                                     expires: session.expires)
    }

    /// When a session used now ends, in whole seconds.
    private func expiry(after now: Date, keepsSignedIn: Bool) -> Date {
        let lifetime = keepsSignedIn ? configuration.keepSignedInLifetime : configuration.sessionLifetime
        return Date(timeIntervalSince1970: (now.timeIntervalSince1970 + lifetime).rounded(.up))
    }

    /// The session of an ID, or nil when there is none (ended, revoked, or never opened).
    private func session(_ sessionID: String) async throws(ServerError) -> Session? {
        let id = RecordID(recordName: sessionID, zoneID: Self.zone)
        let record = try await CloudKitService.run { () async throws(RecordStoreError) -> Record? in
            do throws(RecordStoreError) { return try await store.record(for: id) } catch .zoneNotFound, .unknownRecordType { return nil }
        }
        guard let record, case .string(let user)? = record["user"], case .string(let container)? = record["container"],
              case .int(let turn)? = record["turn"], case .date(let started)? = record["turnStarted"], case .date(let expires)? = record["expires"]
        else { return nil }
        var keeps = false
        if case .int(1)? = record["keepsSignedIn"] { keeps = true }
        return Session(sessionID: sessionID, userRecordName: user, container: container, turn: turn, turnStarted: started, expires: expires,
                       keepsSignedIn: keeps, changeTag: record.recordChangeTag)
    }

    /// Saves a session over the version it was read from (`CONFLICT` when another request moved it on).
    private func save(_ session: Session) async throws(ServerError) {
        var record = Record(recordType: Self.recordType, recordID: RecordID(recordName: session.sessionID, zoneID: Self.zone))
        record["user"] = .string(session.userRecordName)
        record["container"] = .string(session.container)
        record["turn"] = .int(session.turn)
        record["turnStarted"] = .date(session.turnStarted)
        record["expires"] = .date(session.expires)
        record["keepsSignedIn"] = .int(session.keepsSignedIn ? 1 : 0)
        record.recordChangeTag = session.changeTag
        _ = try await CloudKitService.run { () async throws(RecordStoreError) in try await store.save([record]) }
    }

    /// The session record type's fields: sessions are looked up by user to revoke them.
    static let schema = RecordTypeSchema(name: recordType, fields: [
        FieldSchema(name: "user", type: .string, isQueryable: true, isSortable: false),
        FieldSchema(name: "container", type: .string, isQueryable: false, isSortable: false),
        FieldSchema(name: "turn", type: .int64, isQueryable: false, isSortable: false),
        FieldSchema(name: "turnStarted", type: .date, isQueryable: false, isSortable: false),
        FieldSchema(name: "expires", type: .date, isQueryable: false, isSortable: false),
        FieldSchema(name: "keepsSignedIn", type: .int64, isQueryable: false, isSortable: false),
    ])
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore

/// The users of a served store (``ServerUser``), kept as records of the type
/// `QueryServerUser` in a zone of the server's own, `users/accounts` (a name no client zone can
/// take: client zone names have no `/`). Kept in the store, every server over it knows the same
/// users; `query users` manages them from the command line.
///
/// ```swift
/// let directory = UserDirectory(store: store)
/// let ada = try await directory.add(ServerUser(emailAddress: "ada@example.org", isDiscoverable: true))
/// try await directory.user(named: ada.userRecordName)?.emailAddress   // "ada@example.org"
/// ```
public struct UserDirectory: Sendable {
    /// The zone users are kept in.
    static let zone = ZoneID(zoneName: "users/accounts")

    /// The served store (production's, where the server keeps what is not one environment's).
    let store: Store

    /// The users of a store.
    public init(store: Store) {
        self.store = store
    }

    /// Adds a user; `EXISTS` when one of that record name, email address or subject is there.
    ///
    /// ```swift
    /// let user = try await directory.add(ServerUser(givenName: "Ada"))
    /// ```
    @discardableResult
    public func add(_ user: ServerUser) async throws(ServerError) -> ServerUser {
        try await prepare()
        if try await self.user(named: user.userRecordName) != nil {
            throw ServerError(.exists, "a user named \(user.userRecordName) exists")
        }
        if let email = user.emailAddress, try await self.user(emailAddress: email) != nil {
            throw ServerError(.exists, "a user with the email address \(email) exists")
        }
        if let subject = user.subject, try await self.user(subject: subject) != nil {
            throw ServerError(.exists, "a user signed in as \(subject) exists")
        }
        let record = user.record(in: Self.zone)
        _ = try await CloudKitService.run { () async throws(RecordStoreError) in try await store.save([record]) }
        return user
    }

    /// Changes a user's name components, email address or discoverability.
    ///
    /// ```swift
    /// var ada = try await directory.user(named: name)!
    /// ada.isDiscoverable = true
    /// try await directory.update(ada)
    /// ```
    public func update(_ user: ServerUser) async throws(ServerError) {
        try await prepare()
        let id = RecordID(recordName: user.userRecordName, zoneID: Self.zone)
        guard let stored = try await CloudKitService.run({ () async throws(RecordStoreError) in try await store.record(for: id) }) else {
            throw ServerError(.notFound, "no user is named \(user.userRecordName)")
        }
        var record = user.record(in: Self.zone)
        record.recordChangeTag = stored.recordChangeTag
        _ = try await CloudKitService.run { () async throws(RecordStoreError) in try await store.save([record]) }
    }

    /// The user of a record name, or nil.
    public func user(named userRecordName: String) async throws(ServerError) -> ServerUser? {
        guard ServerUser.isRecordName(userRecordName) else { return nil }
        let id = RecordID(recordName: userRecordName, zoneID: Self.zone)
        return try await read { () async throws(RecordStoreError) in try await store.record(for: id) }.map(ServerUser.init(record:))
    }

    /// The user of an email address (compared without case), or nil.
    public func user(emailAddress: String) async throws(ServerError) -> ServerUser? {
        try await first(where: "emailAddress", is: emailAddress.lowercased())
    }

    /// The user an identity provider's subject (`issuer sub`) signed in as, or nil.
    public func user(subject: String) async throws(ServerError) -> ServerUser? {
        try await first(where: "subject", is: subject)
    }

    /// Every user, by record name.
    public func users() async throws(ServerError) -> [ServerUser] {
        try await read { () async throws(RecordStoreError) in
            try await store.records(ofType: ServerUser.recordType, matching: .truePredicate, sorts: [Sort("recordName")], zone: Self.zone)
        }.map(ServerUser.init(record:))
    }

    /// The user a provider's subject stands for, made on its first sign-in with what the
    /// provider says of it; a known user's email address and names follow the provider's.
    func signIn(subject: String, givenName: String?, familyName: String?, emailAddress: String?) async throws(ServerError) -> ServerUser {
        if var user = try await user(subject: subject) {
            let before = user
            user.givenName = givenName ?? user.givenName
            user.familyName = familyName ?? user.familyName
            user.emailAddress = emailAddress?.lowercased() ?? user.emailAddress
            if user != before { try await update(user) }
            return user
        }
        let user = ServerUser(userRecordName: ServerUser.recordName(subject: subject), subject: subject, givenName: givenName,
                              familyName: familyName, emailAddress: emailAddress)
        do {
            return try await add(user)
        } catch let error where error.code == .exists || error.code == .conflict {
            // Another server signed the same person in at the same moment.
            guard let made = try await self.user(subject: subject) else { throw error }
            return made
        }
    }

    /// The first user whose field is the value.
    private func first(where field: String, is value: String) async throws(ServerError) -> ServerUser? {
        let predicate: FormatPredicate
        do {
            predicate = try FormatPredicate(format: "%K == %@", argumentArray: [.string(field), .string(value)])
        } catch {
            throw ServerError(.internalError, "the user lookup could not be written: \(error)")
        }
        return try await read { () async throws(RecordStoreError) in
            try await store.records(ofType: ServerUser.recordType, matching: predicate, zone: Self.zone, limit: 1)
        }.first.map(ServerUser.init(record:))
    }

    /// Makes the zone and declares the record type (a production-mode store takes only declared ones).
    private func prepare() async throws(ServerError) {
        try await CloudKitService.run { () async throws(RecordStoreError) in
            try await store.createZone(Self.zone)
            if try await store.schema(for: ServerUser.recordType) == nil { try await store.define(ServerUser.schema) }
        }
    }

    /// A read's answer, or `nothing` when no user was ever kept (no zone or record type yet).
    private func read<T: ExpressibleByArrayLiteral>(_ body: () async throws(RecordStoreError) -> T) async throws(ServerError) -> T {
        try await CloudKitService.run { () async throws(RecordStoreError) -> T in
            do throws(RecordStoreError) { return try await body() } catch .zoneNotFound, .unknownRecordType { return [] }
        }
    }

    /// A read of one record, or nil when no user was ever kept.
    private func read(_ body: () async throws(RecordStoreError) -> Record?) async throws(ServerError) -> Record? {
        try await CloudKitService.run { () async throws(RecordStoreError) -> Record? in
            do throws(RecordStoreError) { return try await body() } catch .zoneNotFound, .unknownRecordType { return nil }
        }
    }
}
#endif

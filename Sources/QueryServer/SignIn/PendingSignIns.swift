// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore

/// Sign-ins on their way through the identity provider: what the callback needs that must not
/// travel through the browser (the PKCE verifier, the nonce), by the `state` sent to the
/// provider. Kept in the served store (records of the type `QueryServerSignIn` in the zone
/// `users/signins`), so that the callback may reach another server than the sign-in did; each
/// is taken once, and lasts ``lifetime`` seconds. A sign-in nobody finished is removed when a
/// later one starts (``removeAbandoned(now:)``).
///
/// ```swift
/// let pending = PendingSignIns(store: store)
/// try await pending.save(signIn)
/// let same = try await pending.take(signIn.state)   // nil the second time
/// ```
struct PendingSignIns: Sendable {
    /// How a sign-in hands its token to the app that asked for it.
    enum Delivery: Sendable, Equatable {
        /// `window.opener.postMessage` to this origin, from the page the callback answers.
        case popup(origin: String)
        /// A redirect to this URL with `ckWebAuthToken` added to its query.
        case redirect(url: String)
    }

    /// One sign-in on its way.
    struct SignIn: Sendable, Equatable {
        /// What the provider hands back to the callback: the sign-in's name.
        let state: String
        /// The PKCE code verifier (the provider saw only its SHA-256).
        let verifier: String
        /// The nonce the ID token must carry.
        let nonce: String
        let container: String
        /// The callback URL the provider was given (the token endpoint checks it again).
        let redirectURI: String
        let delivery: Delivery
        let keepsSignedIn: Bool
        /// When the sign-in stops being taken (whole seconds).
        let expires: Date
    }

    /// Seconds a user has to sign in at the provider.
    static let lifetime: TimeInterval = 600
    static let zone = ZoneID(zoneName: "users/signins")
    static let recordType = "QueryServerSignIn"

    let store: Store

    /// Keeps a sign-in until its callback, and removes the sign-ins abandoned before it.
    func save(_ signIn: SignIn, now: Date = Date()) async throws(ServerError) {
        try await removeAbandoned(now: now)
        var record = Record(recordType: Self.recordType, recordID: RecordID(recordName: signIn.state, zoneID: Self.zone))
        record["verifier"] = .string(signIn.verifier)
        record["nonce"] = .string(signIn.nonce)
        record["container"] = .string(signIn.container)
        record["redirectURI"] = .string(signIn.redirectURI)
        switch signIn.delivery {
        case .popup(let origin): record["popupOrigin"] = .string(origin)
        case .redirect(let url): record["returnTo"] = .string(url)
        }
        record["keepsSignedIn"] = .int(signIn.keepsSignedIn ? 1 : 0)
        record["expires"] = .date(signIn.expires)
        try await CloudKitService.run { () async throws(RecordStoreError) in
            try await store.createZone(Self.zone)
            if try await store.schema(for: Self.recordType) == nil { try await store.define(Self.schema) }
            _ = try await store.save([record])
        }
    }

    /// Removes the sign-ins that expired without their callback: saved more than ``lifetime``
    /// seconds before `now` (by their creation date, which every record has queryable).
    func removeAbandoned(now: Date = Date()) async throws(ServerError) {
        let predicate: FormatPredicate
        do {
            predicate = try FormatPredicate(format: "creationDate < %@", argumentArray: [.date(now.addingTimeInterval(-Self.lifetime))])
        } catch {
            throw ServerError(.internalError, "the abandoned sign-ins' query could not be written: \(error)")
        }
        try await CloudKitService.run { () async throws(RecordStoreError) in
            do throws(RecordStoreError) {
                let abandoned = try await store.records(ofType: Self.recordType, matching: predicate, zone: Self.zone)
                if !abandoned.isEmpty { try await store.delete(abandoned.map(\.recordID)) }
            } catch .zoneNotFound, .unknownRecordType {
                return
            }
        }
    }

    /// The sign-in of a state, removed so that it is taken once; nil when there is none or it expired.
    func take(_ state: String, now: Date = Date()) async throws(ServerError) -> SignIn? {
        guard ServerUser.isRecordName("_" + state) else { return nil }
        let id = RecordID(recordName: state, zoneID: Self.zone)
        let record = try await CloudKitService.run { () async throws(RecordStoreError) -> Record? in
            do throws(RecordStoreError) {
                guard let record = try await store.record(for: id) else { return nil }
                try await store.delete([id])
                return record
            } catch .zoneNotFound, .unknownRecordType, .recordNotFound {
                return nil
            }
        }
        guard let record, case .string(let verifier)? = record["verifier"], case .string(let nonce)? = record["nonce"],
              case .string(let container)? = record["container"], case .string(let redirectURI)? = record["redirectURI"],
              case .date(let expires)? = record["expires"], expires > now
        else { return nil }
        let delivery: Delivery
        if case .string(let origin)? = record["popupOrigin"] {
            delivery = .popup(origin: origin)
        } else if case .string(let url)? = record["returnTo"] {
            delivery = .redirect(url: url)
        } else {
            return nil
        }
        var keeps = false
        if case .int(1)? = record["keepsSignedIn"] { keeps = true }
        return SignIn(state: state, verifier: verifier, nonce: nonce, container: container, redirectURI: redirectURI, delivery: delivery,
                      keepsSignedIn: keeps, expires: expires)
    }

    /// The record type's fields (none is queried).
    static let schema = RecordTypeSchema(name: recordType, fields: ["verifier", "nonce", "container", "redirectURI", "popupOrigin", "returnTo"].map {
        FieldSchema(name: $0, type: .string, isQueryable: false, isSortable: false)
    } + [
        FieldSchema(name: "keepsSignedIn", type: .int64, isQueryable: false, isSortable: false),
        FieldSchema(name: "expires", type: .date, isQueryable: false, isSortable: false),
    ])
}
#endif

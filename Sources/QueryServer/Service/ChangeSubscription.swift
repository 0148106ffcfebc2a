// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// A subscription to every change of a zone (`subscriptionType: "zone"`, CloudKit's
/// `CKRecordZoneSubscription`) or of a database (`"database"`, `CKDatabaseSubscription`): it
/// fires once for each commit that changes what it watches, and the client then asks what
/// changed (`changes/zone`, `changes/database`).
///
/// As in CloudKit, a zone subscription is for a zone of a private database, and a database
/// subscription for a private or a shared database; the shared database takes no other kind
/// (its zones come and go with the shares). In a shared database, a commit concerns the
/// subscription when it changes which zones are shared with the user, or changes a zone shared
/// with them as `changes/zone` would answer it: a record their shares reach saved, or any record
/// deleted (``NotificationHub``).
///
/// ```swift
/// let subscription = try await ChangeSubscription(request, watching: .database, namespace: namespace, service: service)
/// subscription.scope   // .database
/// ```
struct ChangeSubscription: Sendable {
    /// What it watches.
    enum Scope: Sendable, Equatable {
        /// One zone, as stored.
        case zone(ZoneID)
        /// Every zone of the database.
        case database
    }

    let subscriptionID: String
    let scope: Scope
    /// The subscription dictionary, as answered (and stored).
    let json: JSONValue

    /// What a change subscription watches, as its request's `subscriptionType` says.
    enum Watched {
        /// `zone`: one zone.
        case zone
        /// `database`: the whole database.
        case database
    }

    /// Checks a `zone` or `database` subscription request against its namespace.
    init(_ request: SubscriptionRequest, watching watched: Watched, namespace: Namespace, service: CloudKitService) async throws(ServerError) {
        var members: [String: JSONValue] = ["subscriptionID": .string(request.subscriptionID)]
        switch (watched, namespace.database) {
        case (_, .public):
            throw ServerError(.badRequest, "the public database takes query subscriptions only; zone and database subscriptions are for the private and shared databases")
        case (.zone, .shared):
            throw ServerError(.badRequest, "the shared database takes database subscriptions only (its zones come and go with the shares)")
        case (.zone, .private):
            guard let zoneID = request.zoneID else { throw ServerError(.badRequest, "a zone subscription names its zone in zoneID") }
            let zone = try await service.zone(zoneID, in: namespace)
            scope = .zone(zone)
            members["subscriptionType"] = .string("zone")
            members["zoneID"] = .object(["zoneName": .string(namespace.clientZoneName(zone) ?? zone.zoneName)])
        case (.database, _):
            scope = .database
            members["subscriptionType"] = .string("database")
        }
        if let info = request.notificationInfo { members["notificationInfo"] = info }
        subscriptionID = request.subscriptionID
        json = .object(members)
    }
}
#endif

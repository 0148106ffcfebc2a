// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// One firing of a zone or database subscription (``ChangeSubscription``): something changed in
/// the zone, or in the database; the client asks what (`changes/zone`, `changes/database`).
/// Shaped as CloudKit's notifications: its ID, type (`zone` or `database`), subscription and
/// database scope, the zone of a zone notification, and under `ck` the payload a push
/// notification of CloudKit carries (`fet` with `sid`, `zid` and `dbs` for a zone, `met` with
/// `sid` and `dbs` for a database).
///
/// ```swift
/// let notification = ChangeNotification(eventID: "42-1f2e", subscriptionID: "everything", zoneName: nil, scope: .shared)
/// notification.json(container: "iCloud.example")["databaseScope"]   // "SHARED"
/// ```
struct ChangeNotification: ServerSentNotification, Sendable, Equatable {
    /// The database a notification is about (CloudKit's `CKDatabase.Scope`).
    enum DatabaseScope: Sendable, Equatable {
        case `private`, shared

        /// The name in a notification (`databaseScope`).
        var name: String {
            switch self {
            case .private: "PRIVATE"
            case .shared: "SHARED"
            }
        }

        /// CloudKit's number for it in a push payload (`dbs`).
        var number: Int64 {
            switch self {
            case .private: 2
            case .shared: 3
            }
        }
    }

    /// The event's ID: the commit's sequence and the subscription, so that every server process
    /// over one store names it alike.
    let eventID: String
    let subscriptionID: String
    /// The zone that changed, as the client names it, for a zone subscription; nil for a
    /// database subscription.
    let zoneName: String?
    let scope: DatabaseScope

    /// The JSON of the notification, for a container.
    func json(container: String) -> JSONValue {
        var members: [String: JSONValue] = [
            "notificationID": .string(eventID),
            "notificationType": .string(zoneName == nil ? "database" : "zone"),
            "containerIdentifier": .string(container),
            "subscriptionID": .string(subscriptionID),
            "databaseScope": .string(scope.name),
        ]
        var payload: [String: JSONValue] = ["sid": .string(subscriptionID), "dbs": .integer(scope.number)]
        if let zoneName {
            members["zoneID"] = .object(["zoneName": .string(zoneName)])
            payload["zid"] = .string(zoneName)
        }
        members["ck"] = .object(["cid": .string(container), "nid": .string(eventID), zoneName == nil ? "met" : "fet": .object(payload)])
        return .object(members)
    }
}
#endif

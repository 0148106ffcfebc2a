// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// One firing of a query subscription, in CloudKit's notification shape
/// (`CloudKit.QueryNotification`): its ID, the subscription, the record and the reason; and,
/// under `ck`, the payload a push notification of CloudKit carries (`nid`, `qry` with `sid`,
/// `rid`, `fo`, `zid`, `dbs`).
///
/// ```swift
/// let notification = QueryNotification(eventID: "42-0-1f2e", subscriptionID: "big-cities", ...)
/// notification.serverSentEvent   // "id: 42-0-1f2e\nevent: notification\ndata: {...}\n\n"
/// ```
struct QueryNotification: ServerSentNotification, Sendable, Equatable {
    /// The event's ID: the commit's sequence, the record's place in the commit, and the
    /// subscription, so that every server process over one store names it alike.
    let eventID: String
    let subscriptionID: String
    let recordName: String
    let recordType: String
    /// The user who created the record, when the commit saved it (a deletion's is unknown):
    /// what a listener held to `_creator`'s grants is compared with.
    var creatorUserRecordName: String? = nil
    let reason: QuerySubscription.Reason
    /// The zone as the client names it.
    let zoneName: String
    let isPublicDatabase: Bool

    /// The JSON of the notification, for a container.
    func json(container: String) -> JSONValue {
        .object([
            "notificationID": .string(eventID),
            "notificationType": .string("query"),
            "containerIdentifier": .string(container),
            "subscriptionID": .string(subscriptionID),
            "queryNotificationReason": .string(reason.rawValue),
            "recordName": .string(recordName),
            "recordType": .string(recordType),
            "zoneID": .object(["zoneName": .string(zoneName)]),
            "databaseScope": .string(isPublicDatabase ? "PUBLIC" : "PRIVATE"),
            "ck": .object([
                "cid": .string(container),
                "nid": .string(eventID),
                "qry": .object([
                    "sid": .string(subscriptionID),
                    "rid": .string(recordName),
                    "fo": .integer(reason.number),
                    "zid": .string(zoneName),
                    "dbs": .integer(isPublicDatabase ? 1 : 2),
                ]),
            ]),
        ])
    }

    /// The event that says notifications may have been missed (the `Last-Event-ID` is no longer
    /// retained, or the server lost track of the store's commits): query again.
    static func resetEvent(reason: String) -> String {
        "event: reset\ndata: {\"reason\":\"\(reason)\"}\n\n"
    }

    /// A stable short hash of a subscription ID, for event IDs (FNV-1a, 64 bits).
    static func identifierHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server

/// A notification `subscriptions/events` streams (``QueryNotification``, ``ChangeNotification``):
/// its event ID and its CloudKit JSON, sent as one Server-Sent Event.
///
/// ```swift
/// notification.serverSentEvent(container: "iCloud.com.example")   // "id: 42-0-1f2e\nevent: notification\ndata: {...}\n\n"
/// ```
protocol ServerSentNotification {
    /// The event's ID, which a reconnecting listener sends back as `Last-Event-ID`.
    var eventID: String { get }
    /// The notification as CloudKit shapes it, for a container.
    func json(container: String) -> JSONValue
}

extension ServerSentNotification {
    /// The notification as one Server-Sent Event.
    func serverSentEvent(container: String) -> String {
        "id: \(eventID)\nevent: notification\ndata: \(String(decoding: json(container: container).jsonBytes(), as: UTF8.self))\n\n"
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import CoreMetrics
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET subscriptions/events`: a namespace's notifications as Server-Sent Events
/// (`text/event-stream`), this server's stand-in for CloudKit's push notifications.
///
/// Each notification is an event `notification` whose `id` is the notification's ID and whose
/// `data` is its JSON (``QueryNotification``, or ``ChangeNotification`` for a zone or database
/// subscription). A client that reconnects with `Last-Event-ID`
/// (browsers' `EventSource` does) first gets the notifications it missed, if the server still
/// keeps them (``NotificationHub/retention``), or else an event `reset`. A comment line every
/// ``heartbeat`` keeps proxies from closing an idle connection. The stream ends when the server
/// shuts down.
///
/// ```
/// curl -N http://127.0.0.1:8080/database/1/iCloud.example/development/public/subscriptions/events
/// id: 3-0-9c1f2e7a4b
/// event: notification
/// data: {"notificationID":"3-0-9c1f2e7a4b","queryNotificationReason":"RECORD_CREATED",...}
/// ```
enum NotificationStream {
    /// How often an idle stream sends a comment.
    static let heartbeat: Duration = .seconds(15)

    /// The streaming response for a hub's events.
    /// `slot` is the stream's place among its caller's (``StreamSlots``): held as long as the
    /// answer is, and so released however the stream ends. While it is written, the stream counts
    /// among the subscribers of `metrics`, and each notification it forwards among those sent.
    static func response(_ events: AsyncStream<NotificationHub.Event>, container: String, slot: StreamSlots.Slot,
                         metrics: ServerMetrics) -> Response {
        let chunks = chunks(of: events, container: container, sent: metrics.notificationsSent)
        let subscribers = metrics.subscribers
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                withExtendedLifetime(slot) {}
                subscribers.increment()
                defer { subscribers.decrement() }
                // Reconnect after a second; and the headers go out at once.
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                for await chunk in chunks.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: chunk))
                }
                try await writer.finish(nil)
            })
    }

    /// The text of the events, with a heartbeat comment whenever the stream was idle.
    /// `sent` counts the notifications forwarded.
    static func chunks(of events: AsyncStream<NotificationHub.Event>, container: String, sent: Counter) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(NotificationHub.retainedNotifications))
        let forwarding = Task {
            for await event in events {
                switch event {
                case .notification(let notification):
                    sent.increment()
                    continuation.yield(notification.serverSentEvent(container: container))
                case .change(let notification):
                    sent.increment()
                    continuation.yield(notification.serverSentEvent(container: container))
                case .reset(let reason): continuation.yield(QueryNotification.resetEvent(reason: reason))
                }
            }
            continuation.finish()
        }
        let beating = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: heartbeat)
                continuation.yield(": keep-alive\n\n")
            }
        }
        continuation.onTermination = { _ in
            forwarding.cancel()
            beating.cancel()
        }
        return stream
    }
}
#endif

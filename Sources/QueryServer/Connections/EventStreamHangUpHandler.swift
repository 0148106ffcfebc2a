// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client hung up during an event stream.
///
/// The server allows half-closed connections (a client may end its side after its request and
/// still read the answer), so a client that leaves an endless answer, a Server-Sent Event stream
/// (`subscriptions/events`), would otherwise be noticed only when the stream next writes and
/// fails, up to a heartbeat later, holding its connection and its caller's stream slot
/// (``StreamSlots``) until then. An event stream's client has nothing left to send once it is
/// answered, so its end of input means it left: the connection closes at once.
///
/// ```swift
/// HTTP1Channel.Configuration(additionalChannelHandlers: [EventStreamHangUpHandler()])
/// ```
final class EventStreamHangUpHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Whether the answer being written is an event stream.
    private var streaming = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head): streaming = head.headerFields[.contentType]?.hasPrefix("text/event-stream") == true
        case .end: streaming = false
        case .body: break
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed, streaming {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
#endif

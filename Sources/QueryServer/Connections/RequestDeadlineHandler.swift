// Part of the Server trait: without it, this module is empty.
#if Server
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow: the first request's head must arrive within
/// ``headerTimeout`` of the connection opening; on a kept-alive connection, each later head
/// within ``nextHeadTimeout`` (the server's idle timeout) of the end of the answer before it;
/// and each request's body must end within ``bodyTimeout`` of its head. Hummingbird's own idle
/// timeout restarts with every byte read, so a client that trickles a byte at a time defeats
/// it; these deadlines do not restart, so such a client, on its first request or any later one,
/// holds a connection for a bounded time.
///
/// ```swift
/// HTTP1Channel.Configuration(additionalChannelHandlers: [RequestDeadlineHandler(headerTimeout: .seconds(10), bodyTimeout: .seconds(30),
///                                                                               nextHeadTimeout: .seconds(60))],
///                            idleTimeout: .seconds(60))
/// ```
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let headerTimeout: TimeAmount
    let bodyTimeout: TimeAmount
    let nextHeadTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Request heads read, and answers ended: equal when the connection waits for a next head.
    private var headsRead = 0
    private var answersEnded = 0
    /// Whether a request's body is still arriving (its head read, its end not yet).
    private var bodyOpen = false

    init(headerTimeout: TimeAmount, bodyTimeout: TimeAmount, nextHeadTimeout: TimeAmount) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.nextHeadTimeout = nextHeadTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive, headsRead == 0 { schedule(context, in: headerTimeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if headsRead == 0 { schedule(context, in: headerTimeout) }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            headsRead += 1
            bodyOpen = true
            schedule(context, in: bodyTimeout)
        case .body:
            break
        case .end:
            bodyOpen = false
            cancel()
            // Answered before its body ended (a refusal): the next head is due from now.
            if answersEnded == headsRead { schedule(context, in: nextHeadTimeout) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            answersEnded += 1
            // The answer is out and no other request is under way: the next head is due.
            if answersEnded == headsRead, !bodyOpen { schedule(context, in: nextHeadTimeout) }
        }
        context.write(data, promise: promise)
    }

    private func schedule(_ context: ChannelHandlerContext, in delay: TimeAmount) {
        cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            context.close(promise: nil)
        }
    }

    private func cancel() {
        deadline?.cancel()
        deadline = nil
    }
}
#endif

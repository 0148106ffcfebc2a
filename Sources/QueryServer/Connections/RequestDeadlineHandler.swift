// Part of the Server trait: without it, this module is empty.
#if Server
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow: its first request's head must arrive within
/// ``headerTimeout`` of the connection opening, and each request's body must end within
/// ``bodyTimeout`` of its head. (Between requests, Hummingbird's idle timeout closes a
/// connection that sends nothing, a slow next head included.) A client that trickles its
/// headers or its body a byte at a time therefore holds a connection for a bounded time.
///
/// ```swift
/// HTTP1Channel.Configuration(additionalChannelHandlers: [RequestDeadlineHandler(headerTimeout: .seconds(10), bodyTimeout: .seconds(30))],
///                            idleTimeout: .seconds(60))
/// ```
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let headerTimeout: TimeAmount
    let bodyTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var sawFirstHead = false

    init(headerTimeout: TimeAmount, bodyTimeout: TimeAmount) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive, !sawFirstHead { schedule(context, in: headerTimeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if !sawFirstHead { schedule(context, in: headerTimeout) }
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
            sawFirstHead = true
            cancel()
            schedule(context, in: bodyTimeout)
        case .body:
            break
        case .end:
            cancel()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
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

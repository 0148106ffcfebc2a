// Part of the Server trait: without it, this module is empty.
#if Server
import NIOCore
import RecordStore

/// The connections each client address holds, with a cap per address, so that one client
/// cannot take the server's every connection (``ServerConfiguration/maximumConnectionsPerAddress``).
///
/// A connection is counted from its opening to its closing. One beyond ``cap`` for its address
/// is kept only for `/health` (``ConnectionCapMiddleware`` answers the address's other requests
/// `TRY_AGAIN_LATER` while it is over its cap); one beyond ``cap`` plus ``reserve`` is closed as
/// soon as it opens, before it can cost anything more. Connections from a trusted proxy, which
/// carry every client behind it, are not capped.
///
/// ```swift
/// let limiter = ClientConnectionLimiter(cap: 64, reserve: 2, exempt: [])
/// HTTP1Channel.Configuration(additionalChannelHandlers: [limiter.handler()])
/// ```
final class ClientConnectionLimiter: Sendable {
    /// Connections an address may hold for every route.
    let cap: Int
    /// Connections above ``cap`` an address may hold for `/health` only.
    let reserve: Int
    /// Addresses that are not capped (trusted proxies).
    let exempt: Set<String>
    private let open = CappedCounts()

    init(cap: Int, reserve: Int, exempt: Set<String>) {
        self.cap = cap
        self.reserve = reserve
        self.exempt = exempt
    }

    /// The connections an address holds now.
    func connections(from address: String) -> Int { open.count(of: address) }

    /// Whether an address holds more connections than its cap (its requests other than `/health`
    /// are refused).
    func isOverCap(_ address: String) -> Bool {
        !exempt.contains(address) && connections(from: address) > cap
    }

    /// Counts a connection that opened; false when it is beyond the cap and its reserve (close it).
    func opened(from address: String) -> Bool {
        guard !exempt.contains(address) else { return true }
        return open.add(address, upTo: cap + reserve)
    }

    /// Counts a connection that closed.
    func closed(from address: String) {
        guard !exempt.contains(address) else { return }
        open.remove(address)
    }

    /// A handler for one connection's pipeline.
    func handler() -> Handler { Handler(limiter: self) }

    /// Counts its connection in and out of the limiter, and closes it at once when the address
    /// already holds its cap and reserve.
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        let limiter: ClientConnectionLimiter
        private var address: String?

        init(limiter: ClientConnectionLimiter) {
            self.limiter = limiter
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { count(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            count(context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            release()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            release()
        }

        private func count(_ context: ChannelHandlerContext) {
            guard address == nil else { return }
            let peer = context.channel.remoteAddress?.ipAddress ?? "unknown"
            address = peer
            if !limiter.opened(from: peer) { context.close(promise: nil) }
        }

        private func release() {
            guard let address else { return }
            self.address = nil
            limiter.closed(from: address)
        }
    }
}
#endif

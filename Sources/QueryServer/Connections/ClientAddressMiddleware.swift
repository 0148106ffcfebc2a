// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird

/// Finds the client's address behind the proxies the operator trusts
/// (``ServerConfiguration/trustedProxies``, `query serve --trusted-proxy ADDRESS`).
///
/// A request whose connection comes from a trusted proxy is from the address that proxy names:
/// the last address of `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends
/// the address it was reached from, so the addresses left of it are the client's own claims and
/// are not believed). From any other peer, `X-Forwarded-For` is ignored: a client cannot choose
/// the address that its failed authentications count against. Without trusted proxies nothing
/// changes.
///
/// ```swift
/// router.add(middleware: ClientAddressMiddleware(trustedProxies: ["127.0.0.1"]))
/// ClientAddressMiddleware.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.9, 127.0.0.1"],
///                                       trustedProxies: ["127.0.0.1"])   // "203.0.113.9"
/// ```
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    static let forwardedForHeader = HTTPField.Name("X-Forwarded-For")!

    /// The proxies' addresses, as the connection's peer address is written.
    let trustedProxies: Set<String>

    init(trustedProxies: [String]) {
        self.trustedProxies = Set(trustedProxies)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !trustedProxies.isEmpty else { return try await next(request, context) }
        var context = context
        context.clientAddress = Self.clientAddress(peer: context.clientAddress, forwardedFor: request.headers[values: Self.forwardedForHeader],
                                                   trustedProxies: trustedProxies)
        return try await next(request, context)
    }

    /// The client's address: the peer's, unless the peer is a trusted proxy, then the last
    /// forwarded address that is not a trusted proxy (or the peer's when there is none).
    static func clientAddress(peer: String, forwardedFor: [String], trustedProxies: Set<String>) -> String {
        guard trustedProxies.contains(peer) else { return peer }
        let forwarded = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for address in forwarded.reversed() where !address.isEmpty {
            if !trustedProxies.contains(address) { return String(address.prefix(64)) }
        }
        return peer
    }
}
#endif

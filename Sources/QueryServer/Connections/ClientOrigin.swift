// Part of the Server trait: without it, this module is empty.
#if Server
import Hummingbird

/// The origin a client reached the server at: the scheme, and the request's host and port (its
/// `Host`), or the configured ones. Asset URLs in answers start with it.
///
/// ```swift
/// ClientOrigin.of(request, configuration: configuration)   // "http://127.0.0.1:8080"
/// ```
enum ClientOrigin {
    static func of(_ request: Request, configuration: ServerConfiguration) -> String {
        let scheme = configuration.tls == nil ? "http" : "https"
        let host = request.head.authority ?? "\(configuration.host):\(configuration.port)"
        return "\(scheme)://\(host)"
    }
}
#endif

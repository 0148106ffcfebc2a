// Part of the Server trait: without it, this module is empty.
#if Server

/// Why the server refused a request before its route ran, the `reason` label of
/// `query_http_refused_requests_total` (``ServerMetrics``).
///
/// ```swift
/// context.requestLog.refuse(.rateLimit) { try limiter.admit("key:" + keyID) }
/// ```
enum RefusalReason: String, Sendable, CaseIterable {
    /// A key or API token sent more requests than its rate (`THROTTLED`).
    case rateLimit = "rate_limit"
    /// A client address, or a key, failed to authenticate too often (`THROTTLED`).
    case failedAuthentications = "failed_authentications"
    /// The request did not authenticate (`AUTHENTICATION_FAILED`, `ACCESS_DENIED`).
    case authentication
    /// The server held its most connections (`TRY_AGAIN_LATER`).
    case connectionCap = "connection_cap"
    /// The client address held its most connections (`TRY_AGAIN_LATER`).
    case clientConnectionCap = "client_connection_cap"
    /// The caller held its most event streams (`THROTTLED`).
    case streamCap = "stream_cap"
    /// The body was larger than the server takes (`QUOTA_EXCEEDED`).
    case bodyTooLarge = "body_too_large"
}
#endif

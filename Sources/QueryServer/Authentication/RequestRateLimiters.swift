// Part of the Server trait: without it, this module is empty.
#if Server

/// The server's two sets of rate buckets, made once per server and shared by every
/// ``AuthenticationMiddleware``: requests per caller (a key ID once its signature verified, or an
/// API token), and failed authentications (per client address, and per key ID a failed signature
/// claimed).
///
/// ```swift
/// let limiters = RequestRateLimiters(configuration: configuration)
/// try limiters.requests.admit("key:" + keyID)
/// ```
struct RequestRateLimiters: Sendable {
    /// Requests per caller (``ServerConfiguration/rateLimit`` and ``ServerConfiguration/rateBurst``).
    let requests: RateLimiter
    /// Failed authentications (``ServerConfiguration/failedAuthenticationRate`` and
    /// ``ServerConfiguration/failedAuthenticationBurst``).
    let failures: RateLimiter

    init(configuration: ServerConfiguration) {
        requests = RateLimiter(rate: configuration.rateLimit, burst: configuration.rateBurst)
        failures = RateLimiter(rate: configuration.failedAuthenticationRate, burst: configuration.failedAuthenticationBurst)
    }
}
#endif

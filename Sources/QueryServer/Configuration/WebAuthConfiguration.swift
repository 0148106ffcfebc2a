// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation

/// How long a signed-in user's web auth token lasts (``ServerConfiguration/webAuth``).
///
/// A session lasts ``sessionLifetime`` after its last request, or ``keepSignedInLifetime`` when
/// the user chose to stay signed in. Every answer carries the session's next token
/// (`X-Apple-CloudKit-Web-Auth-Token`); the token it replaces keeps working for
/// ``rotationGrace`` seconds, so that requests a client sent in parallel with one token all pass.
///
/// ```swift
/// var configuration = ServerConfiguration(port: 8080)
/// configuration.webAuth.sessionLifetime = 15 * 60
/// ```
public struct WebAuthConfiguration: Sendable {
    /// Seconds a session lasts after its last request: 30 minutes unless given.
    public var sessionLifetime: TimeInterval
    /// Seconds a "keep me signed in" session lasts after its last request: two weeks unless given.
    public var keepSignedInLifetime: TimeInterval
    /// Seconds a replaced token keeps working after its replacement was handed out: 60 unless given.
    public var rotationGrace: TimeInterval

    /// A configuration; every value has its documented default.
    ///
    /// ```swift
    /// let webAuth = WebAuthConfiguration(sessionLifetime: 600)
    /// ```
    public init(sessionLifetime: TimeInterval = 30 * 60, keepSignedInLifetime: TimeInterval = 14 * 24 * 3600, rotationGrace: TimeInterval = 60) {
        self.sessionLifetime = sessionLifetime
        self.keepSignedInLifetime = keepSignedInLifetime
        self.rotationGrace = rotationGrace
    }
}
#endif

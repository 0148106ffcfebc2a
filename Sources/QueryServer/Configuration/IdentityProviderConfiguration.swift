// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation

/// The OpenID Connect provider users sign in through (``ServerConfiguration/identityProvider``,
/// `query serve --oidc-issuer ... --oidc-client-id ... --oidc-client-secret-file ...`): the
/// team's identity provider, or Sign in with Apple (issuer `https://appleid.apple.com`).
///
/// The server registers with the provider as a confidential client whose redirect URI is
/// `https://SERVER/auth/callback`, and reads the provider's discovery document
/// (`ISSUER/.well-known/openid-configuration`) and keys (its `jwks_uri`) over HTTPS. An `http`
/// issuer is taken for a loopback host only (a provider run for tests).
///
/// ```swift
/// var configuration = ServerConfiguration(port: 8080)
/// configuration.identityProvider = IdentityProviderConfiguration(
///     issuer: "https://login.example.com", clientID: "query-notes", clientSecret: secret)
/// ```
public struct IdentityProviderConfiguration: Sendable {
    /// The provider's issuer identifier, as its ID tokens' `iss` says it (no trailing `/`).
    public var issuer: String
    /// The client ID the provider gave the server (its ID tokens' `aud`).
    public var clientID: String
    /// The client secret, sent to the token endpoint (`client_secret_post`); nil for a public client.
    public var clientSecret: String?
    /// The scopes asked for: `openid`, `email` and `profile` unless given.
    public var scopes: [String]

    /// A provider; the scopes default to `openid email profile`.
    ///
    /// ```swift
    /// let provider = IdentityProviderConfiguration(issuer: "https://login.example.com", clientID: "notes")
    /// ```
    public init(issuer: String, clientID: String, clientSecret: String? = nil, scopes: [String] = ["openid", "email", "profile"]) {
        self.issuer = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
    }

    /// Whether a URL of the provider may be fetched: `https`, or `http` on a loopback host.
    ///
    /// ```swift
    /// IdentityProviderConfiguration.isFetchable("http://127.0.0.1:9000")   // true
    /// IdentityProviderConfiguration.isFetchable("http://login.example.com")   // false
    /// ```
    public static func isFetchable(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), let host = components.host?.lowercased() else { return false }
        switch components.scheme?.lowercased() {
        case "https": return true
        case "http": return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
        default: return false
        }
    }
}
#endif

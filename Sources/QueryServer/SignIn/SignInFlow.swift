// Part of the Server trait: without it, this module is empty.
#if Server
import Crypto
import Foundation
@_spi(StorageEngine) import RecordStoreCore

/// Signing a user in through the identity provider, apart from HTTP: OpenID Connect's
/// authorization-code flow with PKCE (RFC 7636, `S256`), then a session of the user.
///
/// 1. ``start(container:delivery:keepsSignedIn:callback:)`` keeps a new sign-in
///    (``PendingSignIns``: its state, PKCE verifier and nonce) and answers the provider's
///    authorization URL, where the browser goes.
/// 2. The provider sends the browser back to `/auth/callback` with a code and the state;
///    ``finish(state:code:)`` takes the sign-in (once), redeems the code with the verifier,
///    verifies the ID token (``OpenIDProvider``), finds or makes the user (``UserDirectory``,
///    by the provider's subject) and opens a session (``WebAuthSessions``).
///
/// An app that already holds an ID token of the provider (Sign in with Apple JS, say) trades it
/// for a session with ``exchange(idToken:nonce:container:keepsSignedIn:)`` instead.
///
/// ```swift
/// let url = try await flow.start(container: "iCloud.com.example.notes", delivery: .popup(origin: "https://notes.example"),
///                                keepsSignedIn: false, callback: "https://cloud.example/auth/callback")
/// ```
struct SignInFlow: Sendable {
    let provider: OpenIDProvider
    let pending: PendingSignIns
    let directory: UserDirectory
    let sessions: WebAuthSessions

    /// Keeps a new sign-in and answers the provider's authorization URL for it.
    func start(container: String, delivery: PendingSignIns.Delivery, keepsSignedIn: Bool, callback: String, now: Date = Date()) async throws(ServerError) -> String {
        let discovery = try await provider.discovered()
        let signIn = PendingSignIns.SignIn(
            state: Self.randomText(16), verifier: Self.randomText(32), nonce: Self.randomText(16), container: container,
            redirectURI: callback, delivery: delivery, keepsSignedIn: keepsSignedIn,
            expires: Date(timeIntervalSince1970: (now.timeIntervalSince1970 + PendingSignIns.lifetime).rounded(.up)))
        try await pending.save(signIn)
        let configuration = provider.configuration
        let query = [
            ("response_type", "code"), ("client_id", configuration.clientID), ("redirect_uri", callback),
            ("scope", configuration.scopes.joined(separator: " ")), ("state", signIn.state), ("nonce", signIn.nonce),
            ("code_challenge", Self.challenge(signIn.verifier)), ("code_challenge_method", "S256"),
        ].map { "\($0.0)=\(SignInPage.percentEncoded($0.1))" }.joined(separator: "&")
        return discovery.authorizationEndpoint + (discovery.authorizationEndpoint.contains("?") ? "&" : "?") + query
    }

    /// What a finished sign-in gives: the user's first web auth token, and where it goes.
    struct SignedIn: Sendable {
        let token: String
        let user: ServerUser
        let delivery: PendingSignIns.Delivery
    }

    /// Finishes a sign-in the provider sent back: `AUTHENTICATION_FAILED` for an unknown,
    /// used or expired state, or an ID token that fails a check.
    func finish(state: String, code: String, now: Date = Date()) async throws(ServerError) -> SignedIn {
        guard let signIn = try await pending.take(state, now: now) else {
            throw ServerError(.authenticationFailed, "this sign-in is unknown, was already used, or took more than \(Int(PendingSignIns.lifetime / 60)) minutes; sign in again")
        }
        let idToken = try await provider.redeem(code: code, verifier: signIn.verifier, redirectURI: signIn.redirectURI)
        let identity = try await provider.verify(idToken, nonce: signIn.nonce, now: now)
        let (token, user) = try await session(identity, container: signIn.container, keepsSignedIn: signIn.keepsSignedIn)
        return SignedIn(token: token, user: user, delivery: signIn.delivery)
    }

    /// Trades an ID token the app already holds for a session: its nonce must be `nonce` when
    /// one is given.
    func exchange(idToken: String, nonce: String?, container: String, keepsSignedIn: Bool, now: Date = Date()) async throws(ServerError) -> (token: String, user: ServerUser) {
        let identity = try await provider.verify(idToken, nonce: nonce, now: now)
        return try await session(identity, container: container, keepsSignedIn: keepsSignedIn)
    }

    /// The user an identity stands for (made on first sign-in) and a new session's token.
    private func session(_ identity: OpenIDProvider.Identity, container: String, keepsSignedIn: Bool) async throws(ServerError) -> (token: String, user: ServerUser) {
        let user = try await directory.signIn(subject: identity.subject, givenName: identity.givenName, familyName: identity.familyName,
                                              emailAddress: identity.emailAddress)
        let token = try await sessions.open(userRecordName: user.userRecordName, container: container, keepsSignedIn: keepsSignedIn)
        return (token, user)
    }

    /// PKCE's `S256` challenge of a verifier: base64url of its SHA-256.
    static func challenge(_ verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// A random text of `count` bytes, as lowercase hex digits.
    static func randomText(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Hexadecimal.lowercase((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
#endif

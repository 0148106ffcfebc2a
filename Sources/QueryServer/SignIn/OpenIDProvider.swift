// Part of the Server trait: without it, this module is empty.
#if Server
import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import NIOHTTP1
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// The server's side of OpenID Connect with one provider (``IdentityProviderConfiguration``):
/// its discovery document, its signing keys, the token endpoint, and the checks of an ID token.
///
/// - The discovery document (`ISSUER/.well-known/openid-configuration`) is fetched once and
///   kept; its `issuer` must be the configured one.
/// - The keys (`jwks_uri`) are fetched once and kept, and fetched again when an ID token names
///   a key ID they do not hold (the provider rotated its keys), at most once a minute.
/// - An ID token is taken when its signature verifies with the provider's key (RS256 or ES256
///   only, never `none` or a shared secret), `iss` is the issuer, `aud` names the client ID,
///   `exp` is in the future, and `nonce` is the one the sign-in sent (when it sent one).
///
/// ```swift
/// let provider = OpenIDProvider(configuration: identityProvider)
/// let idToken = try await provider.redeem(code: code, verifier: verifier, redirectURI: callback)
/// let identity = try await provider.verify(idToken, nonce: nonce)
/// ```
actor OpenIDProvider {
    /// What the discovery document says.
    struct Discovery: Sendable {
        let authorizationEndpoint: String
        let tokenEndpoint: String
        let jwksURI: String
    }

    /// Who an ID token says signed in.
    struct Identity: Sendable, Equatable {
        /// `iss` and `sub`, a space apart: the user's stable identity at the provider.
        let subject: String
        let givenName: String?
        let familyName: String?
        let emailAddress: String?
    }

    /// The claims of an ID token this server reads.
    struct IDTokenClaims: JWTPayload {
        let iss: String
        let sub: String
        let aud: AudienceClaim
        let exp: ExpirationClaim
        let nonce: String?
        let email: String?
        let given_name: String?
        let family_name: String?

        /// The library's own checks run with the server's (``OpenIDProvider/verify(_:nonce:now:)``).
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    let configuration: IdentityProviderConfiguration
    private let client: HTTPClient
    private var discovery: Discovery?
    private var keys = JWTKeyCollection()
    private var keyIDs: Set<String> = []
    private var keysFetched: Date?

    /// The most bytes a provider's answer may have.
    static let maximumAnswerSize = 1 << 20
    /// The least time between two fetches of the keys.
    static let keyRefreshInterval: TimeInterval = 60

    init(configuration: IdentityProviderConfiguration, client: HTTPClient = .shared) {
        self.configuration = configuration
        self.client = client
    }

    /// The discovery document, fetched once.
    func discovered() async throws(ServerError) -> Discovery {
        if let discovery { return discovery }
        let url = configuration.issuer + "/.well-known/openid-configuration"
        let document = try await fetch(url, method: .GET, form: nil)
        guard document["issuer"]?.stringValue == configuration.issuer else {
            throw Self.failure("the discovery document at \(url) names another issuer than \(configuration.issuer)")
        }
        guard let authorization = document["authorization_endpoint"]?.stringValue, let token = document["token_endpoint"]?.stringValue,
              let jwks = document["jwks_uri"]?.stringValue,
              [authorization, token, jwks].allSatisfy(IdentityProviderConfiguration.isFetchable)
        else { throw Self.failure("the discovery document at \(url) lacks an https authorization_endpoint, token_endpoint or jwks_uri") }
        let found = Discovery(authorizationEndpoint: authorization, tokenEndpoint: token, jwksURI: jwks)
        discovery = found
        return found
    }

    /// Redeems an authorization code at the token endpoint (with the PKCE verifier) for an ID token.
    func redeem(code: String, verifier: String, redirectURI: String) async throws(ServerError) -> String {
        var form = ["grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI,
                    "client_id": configuration.clientID, "code_verifier": verifier]
        if let secret = configuration.clientSecret { form["client_secret"] = secret }
        let answer = try await fetch(try await discovered().tokenEndpoint, method: .POST, form: form)
        guard let idToken = answer["id_token"]?.stringValue else {
            throw Self.failure("the token endpoint answered no id_token" + (answer["error"]?.stringValue.map { " (\($0))" } ?? ""))
        }
        return idToken
    }

    /// The identity an ID token proves, checked as the type's documentation says; an ID token
    /// that fails a check is `AUTHENTICATION_FAILED` saying which.
    func verify(_ idToken: String, nonce: String?, now: Date = Date()) async throws(ServerError) -> Identity {
        let header = try Self.header(of: idToken)
        guard let algorithm = header["alg"]?.stringValue, ["RS256", "ES256"].contains(algorithm) else {
            throw ServerError(.authenticationFailed, "the ID token is signed with \(header["alg"]?.stringValue ?? "no algorithm"), not RS256 or ES256")
        }
        guard let keyID = header["kid"]?.stringValue else { throw ServerError(.authenticationFailed, "the ID token names no key (kid)") }
        if !keyIDs.contains(keyID) { try await refreshKeys(now: now) }
        guard keyIDs.contains(keyID) else { throw ServerError(.authenticationFailed, "the ID token is signed with a key the provider does not publish (kid \(keyID.prefix(80)))") }
        let claims: IDTokenClaims
        do {
            claims = try await keys.verify(idToken, as: IDTokenClaims.self)
        } catch {
            throw ServerError(.authenticationFailed, "the ID token's signature does not verify with the provider's key")
        }
        guard claims.iss == configuration.issuer else { throw ServerError(.authenticationFailed, "the ID token's issuer is not \(configuration.issuer)") }
        guard claims.aud.value.contains(configuration.clientID) else {
            throw ServerError(.authenticationFailed, "the ID token is not meant for this server (its aud does not name \(configuration.clientID))")
        }
        guard claims.exp.value > now else { throw ServerError(.authenticationFailed, "the ID token has expired") }
        if let nonce, claims.nonce != nonce { throw ServerError(.authenticationFailed, "the ID token's nonce is not the sign-in's") }
        return Identity(subject: "\(claims.iss) \(claims.sub)", givenName: claims.given_name, familyName: claims.family_name, emailAddress: claims.email)
    }

    /// Fetches the provider's keys again, unless they were fetched less than a minute ago.
    private func refreshKeys(now: Date) async throws(ServerError) {
        if let keysFetched, now.timeIntervalSince(keysFetched) < Self.keyRefreshInterval { return }
        let url = try await discovered().jwksURI
        let document = try await fetch(url, method: .GET, form: nil)
        let fresh = JWTKeyCollection()
        do {
            try await fresh.add(jwksJSON: String(decoding: document.jsonBytes(), as: UTF8.self))
        } catch {
            throw Self.failure("the provider's keys at \(url) cannot be read: \(error)")
        }
        keys = fresh
        keyIDs = Set((document["keys"]?.arrayValue ?? []).compactMap { $0["kid"]?.stringValue })
        keysFetched = now
    }

    /// The JSON object a provider URL answers (a GET, or a POST of a form).
    private func fetch(_ url: String, method: HTTPMethod, form: [String: String]?) async throws(ServerError) -> JSONValue {
        guard IdentityProviderConfiguration.isFetchable(url) else { throw Self.failure("\(url) is not an https URL") }
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: Self.formEncoded(form)))
        }
        let status: UInt
        let body: ByteBuffer
        do {
            let response = try await client.execute(request, timeout: .seconds(15))
            status = response.status.code
            body = try await response.body.collect(upTo: Self.maximumAnswerSize)
        } catch {
            throw Self.failure("\(url) cannot be reached: \(error)")
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body.readableBytesView)
        } catch {
            throw Self.failure("\(url) answered \(status) with no JSON")
        }
        guard (200..<300).contains(status) else {
            throw Self.failure("\(url) answered \(status)" + (json["error"]?.stringValue.map { ": \($0)" } ?? ""))
        }
        return json
    }

    /// A form's fields as `application/x-www-form-urlencoded`.
    static func formEncoded(_ form: [String: String]) -> String {
        form.sorted { $0.key < $1.key }.map { "\(SignInPage.percentEncoded($0.key))=\(SignInPage.percentEncoded($0.value))" }.joined(separator: "&")
    }

    /// A JWT's header.
    static func header(of token: String) throws(ServerError) -> JSONValue {
        guard let part = token.split(separator: ".", omittingEmptySubsequences: false).first,
              token.split(separator: ".", omittingEmptySubsequences: false).count == 3,
              let bytes = Base64URL.decode(String(part)), let header = try? JSONValue(parsing: bytes), case .object = header
        else { throw ServerError(.authenticationFailed, "the ID token is not a JWT") }
        return header
    }

    /// A failure of the provider: sign-in cannot go on now.
    static func failure(_ reason: String) -> ServerError {
        ServerError(.serviceUnavailable, "the identity provider failed: \(reason)", retryAfter: 5)
    }
}
#endif

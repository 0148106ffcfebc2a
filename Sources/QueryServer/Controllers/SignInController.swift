// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PredicateLanguage
import RecordStore

/// Signing users in (``SignInFlow``), as CloudKit JS expects of the page an
/// `AUTHENTICATION_REQUIRED` answer's `redirectURL` names:
///
/// | route | does |
/// |---|---|
/// | `GET /auth/signin?container=C` | sends the browser to the identity provider (PKCE); the app gets its token by `postMessage` (the window's opener, at `origin`, the `Referer`'s origin, or the one allowed origin) or, with `returnTo=URL`, by a redirect to `URL?ckWebAuthToken=...`. Without a provider, a page saying how the operator hands out tokens. |
/// | `GET /auth/callback` | where the provider sends the browser back: the page that posts `{ckSession, ckWebAuthToken}`, or the redirect |
/// | `POST /auth/exchange?ckAPIToken=T` | `{idToken, container, nonce?, keepSignedIn?}` → `{ckWebAuthToken, userRecordName}`, for an app that holds an ID token of the provider already |
///
/// Tokens are handed only to the server's own origin and the allowed ones
/// (``ServerConfiguration/allowedOrigins``): a page elsewhere that opens the sign-in gets nothing.
///
/// ```swift
/// SignInController(configuration: configuration, current: current, store: store).addRoutes(to: routes)
/// ```
struct SignInController: RouteController {
    let configuration: ServerConfiguration
    /// The API tokens and allowed origins now (a reload replaces them).
    let current: CurrentCallerAccess
    /// The flow, when an identity provider is configured.
    let flow: SignInFlow?

    init(configuration: ServerConfiguration, current: CurrentCallerAccess, store: Store) {
        self.configuration = configuration
        self.current = current
        flow = configuration.identityProvider.map { provider in
            SignInFlow(provider: OpenIDProvider(configuration: provider), pending: PendingSignIns(store: store),
                       directory: UserDirectory(store: store), sessions: WebAuthSessions(store: store, configuration: configuration.webAuth))
        }
    }

    /// The path the provider sends the browser back to.
    static let callbackPath = "auth/callback"

    func addRoutes(to routes: ServerRoutes) {
        let configuration = self.configuration
        let current = self.current
        let flow = self.flow
        routes.plain(SignInPage.path, .get) { request, _ in
            let parameters = request.uri.queryParameters
            let container = parameters.get("container").map { String($0) } ?? configuration.container ?? ""
            guard let flow else { return Self.noProviderPage(container: container) }
            let own = ClientOrigin.of(request, configuration: configuration)
            let delivery = try Self.delivery(request, ownOrigin: own, allowedOrigins: current.snapshot.access.allowedOrigins)
            let url = try await flow.start(container: container, delivery: delivery, keepsSignedIn: parameters.get("keepSignedIn") == "1",
                                           callback: own + "/" + Self.callbackPath)
            return Response(status: .found, headers: [.location: url, .cacheControl: "no-store"])
        }
        routes.plain(Self.callbackPath, .get) { request, _ in
            guard let flow else { throw ServerError(.notFound, "this server has no identity provider") }
            let parameters = request.uri.queryParameters
            if let refusal = parameters.get("error") {
                let detail = parameters.get("error_description").map { ": \($0.prefix(200))" } ?? ""
                throw ServerError(.authenticationFailed, "the identity provider did not sign the user in (\(refusal.prefix(80))\(detail))")
            }
            guard let state = parameters.get("state"), let code = parameters.get("code") else {
                throw ServerError(.badRequest, "the callback needs the provider's code and state")
            }
            let signedIn = try await flow.finish(state: String(state), code: String(code))
            switch signedIn.delivery {
            case .popup(let origin):
                return SignedInPage.response(token: signedIn.token, origin: origin)
            case .redirect(let url):
                let separator = url.contains("?") ? "&" : "?"
                return Response(status: .found, headers: [.location: url + separator + "ckWebAuthToken=" + SignInPage.percentEncoded(signedIn.token),
                                                          .cacheControl: "no-store"])
            }
        }
        routes.plain("auth/exchange", .post) { request, context in
            guard let flow else { throw ServerError(.notFound, "this server has no identity provider") }
            let apiToken = request.uri.queryParameters.get("ckAPIToken").map { String($0) }
            let credentials = current.snapshot.access.credentials
            if !credentials.isEmpty {
                guard let apiToken, credentials.apiTokens.contains(apiToken) else {
                    throw ServerError(.authenticationFailed, "auth/exchange needs one of the server's API tokens (ckAPIToken)")
                }
            }
            var context = context
            context.body = try await AuthenticationMiddleware.body(request, limit: 64 << 10)
            let exchange = try RequestBodyDecoder.decode(ExchangeRequest.self, from: try context.json())
            let (token, user) = try await flow.exchange(idToken: exchange.idToken, nonce: exchange.nonce, container: exchange.container,
                                                        keepsSignedIn: exchange.keepSignedIn ?? false)
            return JSONResponse.make(.object(["ckWebAuthToken": .string(token), "userRecordName": .string(user.userRecordName)]))
        }
    }

    /// How the sign-in hands the token over: a redirect to `returnTo`, or a message to the
    /// opener's origin. Either must be the server's own origin or an allowed one.
    static func delivery(_ request: Request, ownOrigin: String, allowedOrigins: [String]) throws(ServerError) -> PendingSignIns.Delivery {
        let allowed = Set(allowedOrigins.map(CrossOriginMiddleware.normalized) + [CrossOriginMiddleware.normalized(ownOrigin)])
        let parameters = request.uri.queryParameters
        if let returnTo = parameters.get("returnTo").map({ String($0) }) {
            guard let origin = origin(of: returnTo), allowed.contains(origin) else {
                throw ServerError(.badRequest, "returnTo must be a URL of the server or of an --allowed-origin")
            }
            return .redirect(url: returnTo)
        }
        let named = parameters.get("origin").map { String($0) } ?? request.headers[.referer].flatMap(origin(of:))
        if let named {
            guard allowed.contains(CrossOriginMiddleware.normalized(named)) else {
                throw ServerError(.badRequest, "the page that opened the sign-in (\(named.prefix(100))) is not of an --allowed-origin")
            }
            return .popup(origin: named)
        }
        guard allowedOrigins.count == 1, let only = allowedOrigins.first else {
            throw ServerError(.badRequest, "say which page opened the sign-in: origin=https://app.example (one of the --allowed-origin)")
        }
        return .popup(origin: only)
    }

    /// The origin (`scheme://host[:port]`) of a URL, lowercased; nil for a URL without one.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    /// The sign-in page of a server without an identity provider.
    static func noProviderPage(container: String) -> Response {
        let html = EmbeddedFiles.signinHtml.replacingOccurrences(of: "{{container}}", with: ConsoleDocument.escaped(container))
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
                .xContentTypeOptions: "nosniff",
                .cacheControl: "no-store",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
#endif

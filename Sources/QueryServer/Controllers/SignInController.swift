// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /auth/signin?container=...`: the page an `AUTHENTICATION_REQUIRED` answer's
/// `redirectURL` opens (``SignInPage``). Without an identity provider configured, it tells the
/// user how the operator hands out web auth tokens (`query users token`).
///
/// ```swift
/// SignInController(configuration: configuration).addRoutes(to: routes)
/// ```
struct SignInController: RouteController {
    let configuration: ServerConfiguration

    func addRoutes(to routes: ServerRoutes) {
        let configuration = self.configuration
        routes.plain(SignInPage.path, .get) { request, _ in
            let container = request.uri.queryParameters.get("container").map { String($0) } ?? configuration.container ?? ""
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
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The page `/auth/callback` answers a sign-in opened in a window of its own: its script
/// (`signedin.js`) posts `{ckSession, ckWebAuthToken}` to the window that opened it, at the
/// app's origin only, and closes. Its Content-Security-Policy allows that one script, by hash.
///
/// ```swift
/// SignedInPage.response(token: token, origin: "https://notes.example")
/// ```
enum SignedInPage {
    /// The page for a token and the origin it is posted to.
    static func response(token: String, origin: String) -> Response {
        let script = EmbeddedFiles.signedinJs
        let html = EmbeddedFiles.signedinHtml
            .replacingOccurrences(of: "{{origin}}", with: ConsoleDocument.escaped(origin))
            .replacingOccurrences(of: "{{token}}", with: ConsoleDocument.escaped(token))
            .replacingOccurrences(of: "{{script}}", with: script)
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: "default-src 'none'; script-src '\(ConsoleDocument.hash(script))'; base-uri 'none'; form-action 'none'",
                .xContentTypeOptions: "nosniff",
                .cacheControl: "no-store",
                referrerPolicy: "no-referrer",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    private static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PredicateLanguage

/// The query console that `query serve` (and `query console`) answers at `GET /`: one HTML page
/// with its style and scripts inline, which calls the server's public routes like any client
/// (`schema`, `zones/list`, `predicates/check` with the record type, `records/query` with
/// `continuationMarker`, `records/count`, `records/explain`, `records/lookup`, and `records/modify` with the change tag).
///
/// The page fetches nothing but those routes: its Content-Security-Policy allows the inline
/// style and scripts by their SHA-256 hashes and connections to the page's own origin only
/// (`default-src 'none'`), so no CDN, font or map tile is ever loaded. The page is part of the
/// binary (no resource bundle to carry along). The settings it starts with (container,
/// environment, database, whether an API token is needed, the server's sign-in page when it
/// has an identity provider, the `query.predicate` rules) are written into it as attributes of
/// `<body>`.
///
/// On a server with API tokens, the page signs a user in with a session of its own: the
/// server's sign-in page in a popup (which posts the `ckWebAuthToken` back to the page's own
/// origin), or a token pasted from `query users token`. It keeps the token in `sessionStorage`,
/// sends it with every request and takes the rotated one from each answer
/// (`X-Apple-CloudKit-Web-Auth-Token`), and shows whose private database it shows
/// (`users/caller`).
///
/// ```swift
/// let console = ConsoleDocument(container: "iCloud.com.example.cities", tokenRequired: false, rules: .cloudKit)
/// console.html.hasPrefix("<!DOCTYPE html>")   // true
/// console.contentSecurityPolicy                // "default-src 'none'; script-src 'sha256-…'; ..."
/// ```
public struct ConsoleDocument: Sendable {
    /// The container the page starts with when the server serves any container.
    ///
    /// ```swift
    /// ConsoleDocument(tokenRequired: false, rules: .full).html.contains(ConsoleDocument.defaultContainer)   // true
    /// ```
    public static let defaultContainer = "iCloud.com.example.cities"

    /// The whole page.
    ///
    /// ```swift
    /// try Data(console.html.utf8).write(to: URL(fileURLWithPath: "console.html"))
    /// ```
    public let html: String
    /// The value of the page's `Content-Security-Policy` header.
    ///
    /// ```swift
    /// console.contentSecurityPolicy.hasPrefix("default-src 'none'; ")   // true
    /// ```
    public let contentSecurityPolicy: String

    /// The page for a server: the container it serves (or `container`), the production public
    /// database, an API token field when the server has credentials, the path of its sign-in
    /// page when users sign in through an identity provider (`signInPath`; without it, users
    /// paste a token), and its predicate rules.
    ///
    /// ```swift
    /// let console = ConsoleDocument(container: "iCloud.example", tokenRequired: true, signInPath: "/auth/signin", rules: .full)
    /// ```
    public init(container: String = defaultContainer, environment: String = "production", database: String = "public",
                tokenRequired: Bool, signInPath: String? = nil, rules: PredicateRules) {
        let settings = [
            ("data-container", container), ("data-environment", environment), ("data-database", database),
            ("data-token-required", tokenRequired ? "true" : "false"), ("data-sign-in", signInPath ?? ""), ("data-rules", rules.requestName),
        ].map { "\($0.0)=\"\(Self.escaped($0.1))\"" }.joined(separator: " ")
        html = ConsolePage.render(settings: settings)
        contentSecurityPolicy = [
            "default-src 'none'",
            "script-src " + ConsolePage.scripts.map { "'\(Self.hash($0.text))'" }.joined(separator: " "),
            "style-src '\(Self.hash(ConsolePage.css))'",
            "connect-src 'self'",
            "img-src 'self' data:",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// The HTTP answer: the page, its Content-Security-Policy, and no caching or sniffing.
    func response() -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: contentSecurityPolicy,
                .xContentTypeOptions: "nosniff",
                .cacheControl: "no-store",
                Self.referrerPolicy: "no-referrer",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    private static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    /// A CSP source for a text: `sha256-` and its base64 digest.
    static func hash(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
    }

    /// A text made safe inside a double-quoted HTML attribute.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
#endif

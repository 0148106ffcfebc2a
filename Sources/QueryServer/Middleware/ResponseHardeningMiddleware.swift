// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird

/// The outermost middleware: every answer, errors included, carries `X-Frame-Options: DENY`
/// (no page may frame the console or an answer, against clickjacking) and
/// `X-Content-Type-Options: nosniff` (a browser takes each answer as the type it says).
///
/// ```swift
/// router.add(middleware: ResponseHardeningMiddleware())   // before every other middleware
/// ```
struct ResponseHardeningMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    static let frameOptions = HTTPField.Name("X-Frame-Options")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[Self.frameOptions] = "DENY"
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import Hummingbird

/// The server's sign-in page, where `AUTHENTICATION_REQUIRED` answers send a user
/// (`redirectURL`): `/auth/signin?container=...`, on the origin the client reached the server at.
///
/// ```swift
/// SignInPage.url(origin: "https://cloud.example", container: "iCloud.com.example.notes")
/// // "https://cloud.example/auth/signin?container=iCloud.com.example.notes"
/// ```
enum SignInPage {
    /// The page's path.
    static let path = "auth/signin"

    /// An `AUTHENTICATION_REQUIRED` refusal with where the user signs in (`redirectURL`, this
    /// page for the request's container, on the origin the client reached); any other error as it is.
    static func pointing(_ error: ServerError, request: Request, context: ServerRequestContext, configuration: ServerConfiguration) -> ServerError {
        guard error.code == .authenticationRequired else { return error }
        var answered = error
        answered.redirectURL = url(origin: ClientOrigin.of(request, configuration: configuration), container: context.parameters.get("container") ?? "")
        return answered
    }

    /// The page's URL for a container.
    static func url(origin: String, container: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        var encoded = ""
        for byte in container.utf8 {
            if allowed.contains(byte) {
                encoded.append(Character(Unicode.Scalar(byte)))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return "\(origin)/\(path)?container=\(encoded)"
    }
}

private extension String {
    /// The text with zeros before it, to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
#endif

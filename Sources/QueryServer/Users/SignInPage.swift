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
        "\(origin)/\(path)?container=\(percentEncoded(container))"
    }

    /// A text percent-encoded for a URL's query: every byte but ASCII letters, digits and `-._~`.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        let digits = Array("0123456789ABCDEF")
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                encoded.append("%")
                encoded.append(digits[Int(byte >> 4)])
                encoded.append(digits[Int(byte & 0x0F)])
            }
        }
        return encoded
    }
}
#endif

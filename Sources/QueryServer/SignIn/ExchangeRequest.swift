// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `POST /auth/exchange`: `idToken` and `container`, with `nonce` and
/// `keepSignedIn` optional.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(ExchangeRequest.self, from: ["idToken": "eyJ...", "container": "iCloud.com.example.notes"])
/// ```
struct ExchangeRequest: Decodable {
    let idToken: String
    let container: String
    let nonce: String?
    let keepSignedIn: Bool?
}
#endif

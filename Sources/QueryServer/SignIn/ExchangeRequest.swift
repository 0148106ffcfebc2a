// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `POST /auth/exchange`: `idToken` and `container`, with `nonce` and
/// `keepSignedIn` optional.
///
/// ```swift
/// let request = try ExchangeRequest(body: ["idToken": "eyJ...", "container": "iCloud.com.example.notes"])
/// ```
struct ExchangeRequest {
    let idToken: String
    let container: String
    let nonce: String?
    let keepsSignedIn: Bool

    init(body: JSONValue) throws(ServerError) {
        let object = try RequestObject(body, path: "")
        idToken = try object.requiredString("idToken")
        container = try object.requiredString("container")
        nonce = try object.string("nonce")
        keepsSignedIn = try object.bool("keepSignedIn") ?? false
    }
}
#endif

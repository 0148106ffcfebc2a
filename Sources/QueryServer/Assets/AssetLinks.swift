// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import RecordStore

/// How a request's answer links to assets: the origin the client reached this server at
/// (`http://127.0.0.1:8080`, from its `Host` header) and the tokens to sign URLs with. The
/// upload URLs `assets/upload` answers and the `downloadURL` of every `ASSETID` value are made
/// here.
///
/// ```swift
/// let links = AssetLinks(origin: "http://127.0.0.1:8080", tokens: tokens)
/// links.downloadURL(asset, in: field)   // "http://127.0.0.1:8080/assets/download/AbC…"
/// ```
struct AssetLinks: Sendable {
    let origin: String
    let tokens: AssetTokens

    /// The path prefix of upload URLs (`POST`).
    static let uploadPath = "assets/upload"
    /// The path prefix of download URLs (`GET`).
    static let downloadPath = "assets/download"

    func uploadURL(_ claim: AssetTokens.UploadClaim) -> String {
        "\(origin)/\(Self.uploadPath)/\(tokens.upload(claim))"
    }

    /// The download URL of an asset a record's field holds: it serves while the field holds it.
    func downloadURL(_ asset: Asset, in field: AssetField) -> String {
        "\(origin)/\(Self.downloadPath)/\(tokens.download(asset, in: field))"
    }
}
#endif

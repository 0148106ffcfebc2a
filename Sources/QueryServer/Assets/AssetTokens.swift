// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// The server's signed asset tokens, made with the store's cursor key (`CursorSigner`), so that
/// every server over one store accepts the others' tokens:
///
/// | token | carries | valid |
/// |---|---|---|
/// | upload URL (`/assets/upload/<token>`) | the record type, field and record name asked for | ``AssetConfiguration/linkLifetime`` |
/// | receipt (the upload's `receipt`) | the asset's checksum and size | always (a record keeps it) |
/// | download URL (`/assets/download/<token>`) | the asset's checksum and size | ``AssetConfiguration/linkLifetime`` |
///
/// A token that was not signed by this store, or for another purpose, is `AUTHENTICATION_FAILED`;
/// an expired one too, saying so.
///
/// ```swift
/// let tokens = AssetTokens(signer: store.cursorSigner, lifetime: 3600)
/// let asset = try tokens.openDownload(tokens.download(asset))
/// ```
struct AssetTokens: Sendable {
    let signer: CursorSigner
    /// Seconds upload and download tokens stay valid.
    let lifetime: TimeInterval

    /// What an upload URL was made for.
    struct UploadClaim: Equatable {
        let recordType: String
        let fieldName: String
        let recordName: String
    }

    func upload(_ claim: UploadClaim, now: Date = Date()) -> String {
        signer.signToken(purpose: "asset-upload", fields: [claim.recordType, claim.fieldName, claim.recordName],
                         expires: now.addingTimeInterval(lifetime))
    }

    func openUpload(_ token: String, now: Date = Date()) throws(ServerError) -> UploadClaim {
        let fields = try open(token, purpose: "asset-upload", what: "upload URL", now: now)
        guard fields.count == 3 else { throw ServerError(.authenticationFailed, "the upload URL's token is malformed") }
        return UploadClaim(recordType: fields[0], fieldName: fields[1], recordName: fields[2])
    }

    func receipt(_ asset: Asset) -> String {
        signer.signToken(purpose: "asset-receipt", fields: [asset.checksumHex, String(asset.size)], expires: nil)
    }

    /// The asset a receipt stands for; `BAD_REQUEST` naming `path` for one this store did not sign.
    func openReceipt(_ receipt: String, path: String) throws(ServerError) -> Asset {
        do {
            let fields = try signer.openToken(receipt, purpose: "asset-receipt")
            guard let asset = Self.asset(fields) else { throw SignedTokenProblem.malformed }
            return asset
        } catch {
            throw ServerError(.badRequest, "\(path).receipt is not a receipt of this server's assets/upload: \(error)")
        }
    }

    func download(_ asset: Asset, now: Date = Date()) -> String {
        signer.signToken(purpose: "asset-download", fields: [asset.checksumHex, String(asset.size)], expires: now.addingTimeInterval(lifetime))
    }

    func openDownload(_ token: String, now: Date = Date()) throws(ServerError) -> Asset {
        let fields = try open(token, purpose: "asset-download", what: "download URL", now: now)
        guard let asset = Self.asset(fields) else { throw ServerError(.authenticationFailed, "the download URL's token is malformed") }
        return asset
    }

    private func open(_ token: String, purpose: String, what: String, now: Date) throws(ServerError) -> [String] {
        do {
            return try signer.openToken(token, purpose: purpose, now: now)
        } catch {
            throw ServerError(.authenticationFailed, "the \(what) is refused: \(error)")
        }
    }

    /// The asset of a token's fields `[hex checksum, size]`.
    private static func asset(_ fields: [String]) -> Asset? {
        guard fields.count == 2 else { return nil }
        return Asset(Value.reference(Reference(recordName: "sha256-\(fields[0])-\(fields[1])", zoneName: Asset.zoneName)))
    }
}
#endif

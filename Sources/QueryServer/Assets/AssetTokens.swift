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
/// | upload URL (`/assets/upload/<token>`) | the field it is for (``AssetField``), the size declared (if any) and a single-use identifier | ``AssetConfiguration/linkLifetime``, for one upload |
/// | receipt (an upload's `receipt`, or a fetched record's) | the asset's checksum and size, and the field it is for | ``AssetConfiguration/receiptLifetime`` |
/// | download URL (`/assets/download/<token>`) | the asset's checksum and size, and the field that held it | ``AssetConfiguration/linkLifetime``, while the field holds the asset |
///
/// A token that was not signed by this store, or for another purpose, is `AUTHENTICATION_FAILED`;
/// an expired one too, saying so. (A receipt is checked on save: its refusal is the record's
/// `BAD_REQUEST`.)
///
/// ```swift
/// let tokens = AssetTokens(signer: store.cursorSigner, lifetime: 3600, receiptLifetime: 3600)
/// let (asset, field) = try tokens.openDownload(tokens.download(asset, in: field))
/// ```
struct AssetTokens: Sendable {
    let signer: CursorSigner
    /// Seconds upload and download tokens stay valid.
    let lifetime: TimeInterval
    /// Seconds a receipt stays valid.
    let receiptLifetime: TimeInterval

    /// What an upload URL was made for.
    struct UploadClaim: Equatable {
        /// The field the file is for.
        let field: AssetField
        /// The file's size, when `assets/upload` was told it: the upload must have exactly that many bytes.
        let size: Int64?
        /// What makes the URL single-use (``Store/claimAssetUpload(_:expires:)``).
        let identifier: String

        /// A claim with a new identifier.
        init(field: AssetField, size: Int64?, identifier: String = UUID().uuidString.lowercased()) {
            self.field = field
            self.size = size
            self.identifier = identifier
        }
    }

    func upload(_ claim: UploadClaim, now: Date = Date()) -> String {
        signer.signToken(purpose: "asset-upload", fields: [claim.identifier, claim.size.map(String.init) ?? ""] + claim.field.tokenFields,
                         expires: now.addingTimeInterval(lifetime))
    }

    func openUpload(_ token: String, now: Date = Date()) throws(ServerError) -> UploadClaim {
        let fields = try open(token, purpose: "asset-upload", what: "upload URL", now: now)
        guard fields.count == 8, !fields[0].isEmpty, let field = AssetField(tokenFields: fields[2...]) else {
            throw ServerError(.authenticationFailed, "the upload URL's token is malformed")
        }
        let size: Int64?
        if fields[1].isEmpty {
            size = nil
        } else {
            guard let declared = Int64(fields[1]) else { throw ServerError(.authenticationFailed, "the upload URL's token is malformed") }
            size = declared
        }
        return UploadClaim(field: field, size: size, identifier: fields[0])
    }

    /// The receipt of an asset for a field: what a record's `ASSETID` value carries to be saved.
    func receipt(_ asset: Asset, for field: AssetField, now: Date = Date()) -> String {
        signer.signToken(purpose: "asset-receipt", fields: Self.fields(asset) + field.tokenFields, expires: now.addingTimeInterval(receiptLifetime))
    }

    /// The asset a receipt stands for and the field it is for; `BAD_REQUEST` naming `path` for
    /// one this store did not sign, or that has expired.
    func openReceipt(_ receipt: String, path: String, now: Date = Date()) throws(ServerError) -> (asset: Asset, field: AssetField) {
        do throws(SignedTokenProblem) {
            let fields = try signer.openToken(receipt, purpose: "asset-receipt", now: now)
            guard fields.count == 8, let asset = Self.asset(fields[0..<2]), let field = AssetField(tokenFields: fields[2...]) else {
                throw SignedTokenProblem.malformed
            }
            return (asset, field)
        } catch {
            if case .expired = error {
                throw ServerError(.badRequest, "\(path).receipt has expired (a receipt is valid for \(Self.duration(receiptLifetime))): upload the file again, or fetch the record again for a fresh one")
            }
            throw ServerError(.badRequest, "\(path).receipt is not a receipt of this server's assets/upload: \(error)")
        }
    }

    /// The token of a download URL for an asset a field holds.
    func download(_ asset: Asset, in field: AssetField, now: Date = Date()) -> String {
        signer.signToken(purpose: "asset-download", fields: Self.fields(asset) + field.tokenFields, expires: now.addingTimeInterval(lifetime))
    }

    func openDownload(_ token: String, now: Date = Date()) throws(ServerError) -> (asset: Asset, field: AssetField) {
        let fields = try open(token, purpose: "asset-download", what: "download URL", now: now)
        guard fields.count == 8, let asset = Self.asset(fields[0..<2]), let field = AssetField(tokenFields: fields[2...]) else {
            throw ServerError(.authenticationFailed, "the download URL's token is malformed")
        }
        return (asset, field)
    }

    private func open(_ token: String, purpose: String, what: String, now: Date) throws(ServerError) -> [String] {
        do {
            return try signer.openToken(token, purpose: purpose, now: now)
        } catch {
            throw ServerError(.authenticationFailed, "the \(what) is refused: \(error)")
        }
    }

    /// An asset in a token: `[hex checksum, size]`.
    private static func fields(_ asset: Asset) -> [String] {
        [asset.checksumHex, String(asset.size)]
    }

    /// The asset of a token's fields `[hex checksum, size]`.
    private static func asset(_ fields: ArraySlice<String>) -> Asset? {
        guard fields.count == 2 else { return nil }
        return Asset(Value.reference(Reference(recordName: "sha256-\(fields[fields.startIndex])-\(fields[fields.startIndex + 1])", zoneName: Asset.zoneName)))
    }

    /// A number of seconds as people say it: `1 hour`, `2 hours`, `90 seconds`.
    static func duration(_ seconds: TimeInterval) -> String {
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 {
            let hours = Int(seconds / 3600)
            return hours == 1 ? "1 hour" : "\(hours) hours"
        }
        let whole = Int(seconds.rounded())
        return whole == 1 ? "1 second" : "\(whole) seconds"
    }
}
#endif

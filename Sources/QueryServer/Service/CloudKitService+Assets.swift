// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore

extension CloudKitService {
    /// The signed tokens of this store's asset URLs and receipts (``AssetTokens``).
    var assetTokens: AssetTokens {
        AssetTokens(signer: store.cursorSigner, lifetime: assetConfiguration.linkLifetime)
    }

    /// The asset links of an answer to a client that reached the server at `origin`
    /// (`http://127.0.0.1:8080`).
    func assetLinks(origin: String) -> AssetLinks {
        AssetLinks(origin: origin, tokens: assetTokens)
    }

    /// How a namespace's records are written: its owner (``UserRecordName``) and asset links.
    func answerStyle(_ namespace: Namespace, links: AssetLinks?) -> RecordAnswerStyle {
        RecordAnswerStyle(owner: UserRecordName.owner(of: namespace.database), assetLinks: links, namespace: namespace)
    }

    /// `assets/upload`: one upload URL on this server for each `{recordType, fieldName,
    /// recordName}` token, valid for ``AssetConfiguration/linkLifetime``. Answers
    /// `{"tokens": [{recordName, fieldName, url}]}` in the order asked.
    func requestUploads(_ body: JSONValue, in namespace: Namespace, links: AssetLinks) async throws(ServerError) -> JSONValue {
        let request = try AssetsUploadRequest(body: body)
        _ = try await zone(request.zoneID, in: namespace)
        do {
            _ = try store.assetStorage()
        } catch {
            throw ServerError(.badRequest, "\(error)")
        }
        return .object(["tokens": .array(request.tokens.map { token in
            let url = links.uploadURL(AssetTokens.UploadClaim(recordType: token.recordType, fieldName: token.fieldName, recordName: token.recordName))
            return .object(["recordName": .string(token.recordName), "fieldName": .string(token.fieldName), "url": .string(url)])
        })])
    }

    /// A file POSTed to an upload URL: its token checked, its size at most
    /// ``AssetConfiguration/maximumSize``, its bytes kept as an upload no record references yet.
    /// Answers CloudKit's `{"singleFile": {fileChecksum, size, receipt}}`: the SHA-256 of the bytes
    /// (base64), their size, and the receipt a record's `ASSETID` value carries.
    func receiveUpload(token: String, bytes: Data, now: Date = Date()) async throws(ServerError) -> JSONValue {
        _ = try assetTokens.openUpload(token, now: now)
        guard bytes.count <= assetConfiguration.maximumSize else {
            throw ServerError(.quotaExceeded, "the file is larger than \(assetConfiguration.maximumSize) bytes")
        }
        let asset = Asset(bytes: bytes)
        try await runAsset { () async throws(AssetError) in try await store.putAsset(asset, bytes: bytes, pending: true, date: now) }
        await sweepAssetsIfDue(now: now)
        return .object(["singleFile": .object([
            "fileChecksum": .string(asset.fileChecksum), "size": .integer(asset.size), "receipt": .string(assetTokens.receipt(asset)),
        ])])
    }

    /// The bytes a download URL's token names.
    func download(token: String) async throws(ServerError) -> Data {
        let asset = try assetTokens.openDownload(token)
        return try await runAsset { () async throws(AssetError) in try await store.assetData(asset) }
    }

    /// A record to save with its pending `ASSETID` values (``AssetWire``) made assets: each
    /// receipt checked and its bytes kept for good; a per-record failure otherwise.
    func resolveAssets(in record: Record) async -> Result<Record, ModifyFailure> {
        var resolved = record
        var assets: [Asset] = []
        do {
            for (name, value) in record.fields {
                if case .list(let members) = value, members.contains(where: { AssetWire.pending($0) != nil }) {
                    var values: [Value] = []
                    for (index, member) in members.enumerated() {
                        values.append(try resolve(member, path: "fields.\(name).value[\(index)]", into: &assets))
                    }
                    resolved.fields[name] = .list(values)
                } else if AssetWire.pending(value) != nil {
                    resolved.fields[name] = try resolve(value, path: "fields.\(name).value", into: &assets)
                }
            }
        } catch {
            return .failure(ModifyFailure(error.code, error.reason))
        }
        guard !assets.isEmpty else { return .success(resolved) }
        do {
            try await store.keepAssets(assets)
        } catch {
            if case .notFound(let asset) = error {
                let lifetime = assetConfiguration.unreferencedLifetime
                let after = lifetime >= 3600 ? "\(Int(lifetime / 3600)) hours" : "\(Int(lifetime)) seconds"
                return .failure(ModifyFailure(.badRequest, "asset \(asset) of record '\(record.recordID.recordName)' is not stored: an upload no record references is removed after \(after); upload it again"))
            }
            return .failure(ModifyFailure(.badRequest, "\(error)"))
        }
        return .success(resolved)
    }

    /// The asset of one pending value: its receipt this server's, its checksum and size the receipt's.
    private func resolve(_ value: Value, path: String, into assets: inout [Asset]) throws(ServerError) -> Value {
        guard let pending = AssetWire.pending(value) else { return value }
        let asset = try assetTokens.openReceipt(pending.receipt, path: path)
        if let checksum = pending.fileChecksum, checksum != asset.fileChecksum {
            throw ServerError(.badRequest, "\(path).fileChecksum '\(checksum.prefix(64))' is not the checksum of the uploaded file ('\(asset.fileChecksum)', its receipt's)")
        }
        if let size = pending.size, size != asset.size {
            throw ServerError(.badRequest, "\(path).size \(size) is not the size of the uploaded file (\(asset.size) bytes, its receipt's)")
        }
        assets.append(asset)
        return asset.value
    }

    /// Removes the uploads no record referenced within ``AssetConfiguration/unreferencedLifetime``,
    /// at most once an hour (or once a lifetime, when that is shorter); a failure is left for the
    /// next upload.
    func sweepAssetsIfDue(now: Date = Date()) async {
        let interval = min(3600, assetConfiguration.unreferencedLifetime)
        let due = lastAssetSweep.withLock { last -> Bool in
            if let last, now.timeIntervalSince(last) < interval { return false }
            last = now
            return true
        }
        guard due else { return }
        _ = try? await store.removeUnreferencedAssets(uploadedBefore: now.addingTimeInterval(-assetConfiguration.unreferencedLifetime))
    }

    /// Runs an asset call, its errors answered as CloudKit's.
    private func runAsset<T>(_ body: () async throws(AssetError) -> T) async throws(ServerError) -> T {
        do {
            return try await body()
        } catch {
            switch error {
            case .notFound: throw ServerError(.notFound, "\(error)")
            case .tooLarge: throw ServerError(.quotaExceeded, "\(error)")
            case .store(let storeError): throw Self.serverError(storeError)
            case .unsupported, .checksumMismatch: throw ServerError(.badRequest, "\(error)")
            }
        }
    }
}
#endif

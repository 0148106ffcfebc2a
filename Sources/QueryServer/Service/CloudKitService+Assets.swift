// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore

extension CloudKitService {
    /// The signed tokens of this store's asset URLs and receipts (``AssetTokens``).
    var assetTokens: AssetTokens {
        AssetTokens(signer: store.cursorSigner, lifetime: assetConfiguration.linkLifetime, receiptLifetime: assetConfiguration.receiptLifetime)
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
    /// recordName, size}` token, valid for ``AssetConfiguration/linkLifetime`` and for one
    /// upload, of a file for that field in the request's zone (of exactly `size` bytes when given;
    /// at most ``AssetConfiguration/maximumSize``). Answers `{"tokens": [{recordName, fieldName,
    /// url}]}` in the order asked.
    func requestUploads(_ body: JSONValue, in namespace: Namespace, links: AssetLinks) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(AssetsUploadRequest.self, from: body)
        let zone = try await zone(request.zoneID, in: namespace)
        do {
            _ = try store.assetStorage()
        } catch {
            throw ServerError(.badRequest, "\(error)")
        }
        for (index, token) in request.tokens.enumerated() {
            if let size = token.size, size > Int64(assetConfiguration.maximumSize) {
                throw ServerError(.quotaExceeded, "tokens[\(index)].size \(size) is more than the largest file this server takes (\(assetConfiguration.maximumSize) bytes)")
            }
        }
        return .object(["tokens": .array(request.tokens.map { token in
            let field = AssetField(namespace: namespace, zoneName: zone.zoneName, recordType: token.recordType, recordName: token.recordName, fieldName: token.fieldName)
            let url = links.uploadURL(AssetTokens.UploadClaim(field: field, size: token.size))
            return .object(["recordName": .string(token.recordName), "fieldName": .string(token.fieldName), "url": .string(url)])
        })])
    }

    /// A file POSTed to an upload URL, its bytes written to the store as they arrive (a chunk
    /// at a time, never whole): the token checked and spent (an upload URL takes one file, even
    /// when that upload fails), the size at most the URL's (its declared size, exactly, or
    /// ``AssetConfiguration/maximumSize``), the bytes kept as an upload no record references yet.
    /// `declaredLength` is the request's `Content-Length`, refused at once when too large. Answers
    /// CloudKit's `{"singleFile": {fileChecksum, size, receipt}}`: the SHA-256 of the bytes
    /// (base64), their size, and the receipt a record's `ASSETID` value carries, for the field
    /// the URL was made for.
    func receiveUpload<Body: AsyncSequence>(token: String, declaredLength: Int64?, body: Body, now: Date = Date()) async throws(ServerError) -> JSONValue
    where Body.Element: Collection, Body.Element.Element == UInt8 {
        let claim = try assetTokens.openUpload(token, now: now)
        let limit = claim.size ?? Int64(assetConfiguration.maximumSize)
        let tooLarge = claim.size.map { "the file is larger than the \($0) bytes its upload URL was made for" } ?? "the file is larger than \(limit) bytes"
        if let declaredLength, declaredLength > limit { throw ServerError(.quotaExceeded, tooLarge) }
        // Spent before the body is read: a second request with the URL is refused even while the first is under way.
        let expiry = now.addingTimeInterval(assetConfiguration.linkLifetime)
        guard try await runAsset({ () async throws(AssetError) in try await store.claimAssetUpload(claim.identifier, expires: expiry) }) else {
            throw ServerError(.authenticationFailed, "the upload URL is refused: it was already used (an upload URL takes one file; ask assets/upload for another)")
        }
        let upload = try await runAsset { () async throws(AssetError) in try await store.beginAsset(maximumSize: limit) }
        do {
            for try await piece in body { try await upload.write(piece) }
        } catch let error as AssetError {
            if case .tooLarge = error { throw ServerError(.quotaExceeded, tooLarge) }
            throw Self.serverError(error)
        } catch {
            await upload.cancel()
            throw ServerError(.badRequest, "the file could not be read to its end")
        }
        if let size = claim.size, upload.size != size {
            await upload.cancel()
            throw ServerError(.badRequest, "the file has \(upload.size) bytes, not the \(size) its upload URL was made for")
        }
        let asset = try await runAsset { () async throws(AssetError) in try await upload.finish(pending: true, date: now) }
        await sweepAssetsIfDue(now: now)
        return .object(["singleFile": .object([
            "fileChecksum": .string(asset.fileChecksum), "size": .integer(asset.size),
            "receipt": .string(assetTokens.receipt(asset, for: claim.field, now: now)),
        ])])
    }

    /// The bytes a download URL's token names, to be read a chunk at a time as they are sent:
    /// `NOT_FOUND` once the record field the URL came with no longer holds the asset (the record
    /// deleted, the field changed), or when the bytes are not stored.
    func download(token: String, now: Date = Date()) async throws(ServerError) -> AssetChunks {
        let (asset, field) = try assetTokens.openDownload(token, now: now)
        // The record is in its environment's store; every environment's asset bytes are in the
        // served store.
        let records = try await self.store(for: field.namespace)
        let id = RecordID(recordName: field.recordName, zoneID: ZoneID(zoneName: field.zoneName))
        let record: Record?
        do {
            record = try await records.record(for: id)
        } catch {
            guard case .zoneNotFound = error else { throw Self.serverError(error) }
            record = nil
        }
        guard let record, field.holds(asset, in: record) else {
            throw ServerError(.notFound, "the download URL's asset is no longer held by \(field) (the record was deleted or its field changed)")
        }
        return try await runAsset { () async throws(AssetError) in try await store.assetChunks(asset) }
    }

    /// A record to save with its pending `ASSETID` values (``AssetWire``) made assets: each
    /// receipt checked (signed here, not expired, made for this field of this record in
    /// `namespace`) and its bytes kept for good; a per-record failure otherwise.
    func resolveAssets(in record: Record, namespace: Namespace) async -> Result<Record, ModifyFailure> {
        var resolved = record
        var assets: [Asset] = []
        do {
            for (name, value) in record.fields {
                if case .list(let members) = value, members.contains(where: { AssetWire.pending($0) != nil }) {
                    var values: [Value] = []
                    for (index, member) in members.enumerated() {
                        values.append(try resolve(member, path: "fields.\(name).value[\(index)]", field: name, of: record, namespace: namespace, into: &assets))
                    }
                    resolved.fields[name] = .list(values)
                } else if AssetWire.pending(value) != nil {
                    resolved.fields[name] = try resolve(value, path: "fields.\(name).value", field: name, of: record, namespace: namespace, into: &assets)
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

    /// The asset of one pending value in the field `fieldName` of `record`: its receipt this
    /// server's, unexpired and made for that field, its checksum and size the receipt's.
    private func resolve(
        _ value: Value, path: String, field fieldName: String, of record: Record, namespace: Namespace, into assets: inout [Asset]
    ) throws(ServerError) -> Value {
        guard let pending = AssetWire.pending(value) else { return value }
        let (asset, field) = try assetTokens.openReceipt(pending.receipt, path: path)
        guard field.admits(record, fieldName: fieldName, namespace: namespace) else {
            let target = AssetField(record, fieldName: fieldName, namespace: namespace)
            let zone = field.zoneName == target.zoneName && field.namespace == namespace ? "" : " in another zone or database"
            throw ServerError(.badRequest, "\(path).receipt was made for \(field)\(zone), not for \(target): upload the file for this field")
        }
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
            throw Self.serverError(error)
        }
    }

    /// An asset error as the error CloudKit answers.
    private static func serverError(_ error: AssetError) -> ServerError {
        switch error {
        case .notFound: ServerError(.notFound, "\(error)")
        case .tooLarge: ServerError(.quotaExceeded, "\(error)")
        case .store(let storeError): serverError(storeError)
        case .unsupported, .checksumMismatch, .uploadClosed: ServerError(.badRequest, "\(error)")
        }
    }
}
#endif

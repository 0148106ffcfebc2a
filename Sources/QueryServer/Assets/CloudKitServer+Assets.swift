// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PredicateLanguage

extension CloudKitServer {
    /// The asset and user routes:
    /// - `POST .../assets/upload` (signed as every database route): upload URLs for asset fields;
    /// - `POST /assets/upload/{token}`: a file's bytes, answered by its `singleFile` receipt;
    /// - `GET /assets/download/{token}`: an asset's bytes (a record's `downloadURL`);
    /// - `GET .../users/current`: the caller's `userRecordName` (``UserRecordName``).
    ///
    /// The upload and download URLs carry their own signed, expiring token (``AssetTokens``) in
    /// place of a request signature, as CloudKit's do, so that any HTTP client can use them.
    func addAssetRoutes(to routes: ServerRoutes, privateUsers: [String: String]) {
        let service = self.service
        let configuration = self.configuration
        routes.database("assets/upload", [.post], access: .write) { request, context in
            let links = service.assetLinks(origin: Self.origin(of: request, configuration: configuration))
            return JSONResponse.make(try await service.requestUploads(try context.json(), in: try context.requireNamespace(), links: links))
        }
        routes.database("users/current", [.get], access: .read) { _, context in
            JSONResponse.make(.object(["userRecordName": .string(try UserRecordName.of(context.caller, privateUsers: privateUsers))]))
        }
        routes.plain("\(AssetLinks.uploadPath)/:token", .post) { request, context in
            let token = context.parameters.get("token") ?? ""
            // The token first: a forged or expired URL is refused before its body is read.
            _ = try service.assetTokens.openUpload(token)
            let limit = configuration.assets.maximumSize
            if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
                throw ServerError(.quotaExceeded, "the file is larger than \(limit) bytes")
            }
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: limit)
            } catch is NIOTooManyBytesError {
                throw ServerError(.quotaExceeded, "the file is larger than \(limit) bytes")
            } catch {
                throw ServerError(.badRequest, "the file could not be read")
            }
            return JSONResponse.make(try await service.receiveUpload(token: token, bytes: Data(body.readableBytesView)))
        }
        routes.plain("\(AssetLinks.downloadPath)/:token", .get) { _, context in
            let bytes = try await service.download(token: context.parameters.get("token") ?? "")
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// The origin a client reached the server at: the scheme, and the request's host and port
    /// (its `Host`), or the configured ones.
    static func origin(of request: Request, configuration: ServerConfiguration) -> String {
        let scheme = configuration.tls == nil ? "http" : "https"
        let host = request.head.authority ?? "\(configuration.host):\(configuration.port)"
        return "\(scheme)://\(host)"
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The asset routes:
/// - `POST .../assets/upload` (signed as every database route): upload URLs for asset fields;
/// - `POST /assets/upload/{token}`: a file's bytes, answered by its `singleFile` receipt;
/// - `GET /assets/download/{token}`: an asset's bytes (a record's `downloadURL`).
///
/// The upload and download URLs carry their own signed, expiring token (``AssetTokens``) in
/// place of a request signature, as CloudKit's do, so that any HTTP client can use them. A file
/// moves between the client and the store a chunk at a time, both ways, so a transfer holds
/// about `Asset.chunkSize` of it in memory, whatever its size: a download reads ahead of its
/// client at most the socket's send buffer, the channel's high water mark and two chunks.
///
/// ```swift
/// AssetsController(service: service, configuration: configuration).addRoutes(to: routes)
/// ```
struct AssetsController: RouteController {
    let service: CloudKitService
    let configuration: ServerConfiguration

    func addRoutes(to routes: ServerRoutes) {
        let service = self.service
        let configuration = self.configuration
        routes.database("assets/upload", [.post], access: .write) { request, context in
            let links = service.assetLinks(origin: ClientOrigin.of(request, configuration: configuration))
            return JSONResponse.make(try await service.requestUploads(try context.json(), in: try context.requireNamespace(), links: links))
        }
        routes.plain("\(AssetLinks.uploadPath)/:token", .post) { request, context in
            // The body goes to the store as it arrives, a chunk at a time (never collected whole).
            let length = request.headers[.contentLength].flatMap { Int64($0) }
            let body = request.body.map { buffer in buffer.readableBytesView }
            return JSONResponse.make(try await service.receiveUpload(token: context.parameters.get("token") ?? "", declaredLength: length, body: body))
        }
        routes.plain("\(AssetLinks.downloadPath)/:token", .get) { _, context in
            // Checked before the answer starts (an error is CloudKit's JSON); then read from the store as it is sent.
            let chunks = try await service.download(token: context.parameters.get("token") ?? "")
            let eventLoop = context.eventLoop
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: Int(clamping: chunks.asset.size)) { writer in
                    for try await chunk in chunks {
                        try await writer.write(ByteBuffer(bytes: chunk))
                        // `write` returns once the chunk is queued for the loop, before the channel
                        // says it is full; after this hop (tasks run in order) it has said so.
                        try await eventLoop.submit {}.get()
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird
import NIOCore
import RecordStoreCore

/// Records each request in the server's metrics (``ServerMetrics``) once its answer is made,
/// before it is written: one count by route, method and status, its latency by route and
/// method, the body bytes it read and wrote, the refusal that stopped it (``RefusalReason``),
/// and, on the asset URLs, the asset bytes; and the last hour's requests by route in memory
/// (``TelemetryWindow``, the console's Telemetry tab). The route is the pattern the router matched, as in
/// the request log (``RequestLogMiddleware/route(_:)``). Outermost beside the request log, so that
/// it sees every answer, refusals included.
///
/// The latency runs until the answer's head is ready: for a streamed answer (an event stream, a
/// download), until it starts. Response bytes of a body of known length (a download's too) are
/// counted with the answer; those of a body of unknown length (an event stream) as they are
/// written.
///
/// ```swift
/// router.add(middleware: RequestMetricsMiddleware(metrics: ServerMetrics(factory: factory)))
/// ```
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let telemetryStarted = metrics.telemetry.clock.now()
        let log = context.requestLog
        var request = request
        request.body = RequestBody(asyncSequence: CountingBody(base: request.body, log: log))
        let method = ServerMetrics.methodLabel(request.method.rawValue)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(route: RequestLogMiddleware.route(context.endpointPath), method: method, status: status, started: started,
                   telemetryStarted: telemetryStarted, log: log)
            throw error
        }
        let route = RequestLogMiddleware.route(context.endpointPath)
        record(route: route, method: method, status: response.status.code, started: started, telemetryStarted: telemetryStarted, log: log)
        let bytesOut = metrics.responseBytes(route: route)
        let assetBytes = route == Self.downloadRoute && response.status == .ok ? metrics.assetBytesDownloaded : nil
        if let length = response.body.contentLength {
            // Counted now: a mapped body would lose its length, and be sent chunked.
            bytesOut.increment(by: length)
            assetBytes?.increment(by: length)
        } else {
            response.body = response.body.map { buffer in
                bytesOut.increment(by: buffer.readableBytes)
                assetBytes?.increment(by: buffer.readableBytes)
                return buffer
            }
        }
        return response
    }

    /// Counts a request with its answer's status.
    private func record(route: String, method: String, status: Int, started: ContinuousClock.Instant, telemetryStarted: Duration, log: RequestLogEntry) {
        metrics.request(route: route, method: method, status: status).increment()
        metrics.telemetry.record(route: route, status: status, started: telemetryStarted)
        metrics.duration(route: route, method: method).recordElapsed(since: started)
        let fields = log.current
        metrics.requestBytes(route: route).increment(by: fields.bodyBytes)
        if route == Self.uploadRoute, status == 200 { metrics.assetBytesUploaded.increment(by: fields.bodyBytes) }
        if let refusal = fields.refusal { metrics.refused(refusal)?.increment() }
    }

    /// The route of asset uploads and of asset downloads, as the router names them.
    static let uploadRoute = "/\(AssetLinks.uploadPath)/{token}"
    static let downloadRoute = "/\(AssetLinks.downloadPath)/{token}"

    /// A request body whose bytes are counted in the request's log entry as they are read.
    struct CountingBody: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let base: RequestBody
        let log: RequestLogEntry

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: RequestBody.AsyncIterator
            let log: RequestLogEntry

            mutating func next() async throws -> ByteBuffer? {
                let buffer = try await base.next()
                if let buffer { log.update { $0.bodyBytes += buffer.readableBytes } }
                return buffer
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: base.makeAsyncIterator(), log: log)
        }
    }
}
#endif

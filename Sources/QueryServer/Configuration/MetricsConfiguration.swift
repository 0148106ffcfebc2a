// Part of the Server trait: without it, this module is empty.
#if Server

/// Where a ``CloudKitServer`` serves its metrics (`GET /metrics`, Prometheus' text format): on a
/// port of its own, bound on loopback unless told otherwise (`query serve --metrics-port`), or
/// on the main port behind a bearer token (`--metrics-token-file`), or both. Neither by default:
/// the metrics are recorded, and served nowhere.
///
/// ```swift
/// var configuration = ServerConfiguration(port: 8080)
/// configuration.metrics.port = 9464                 // http://127.0.0.1:9464/metrics
/// configuration.metrics.bearerToken = "s3cr3t"      // GET :8080/metrics with Authorization: Bearer s3cr3t
/// ```
public struct MetricsConfiguration: Sendable, Equatable {
    /// The port of the metrics listener (0: any free port, reported to `onMetricsListening`), or
    /// nil for none.
    public var port: Int?
    /// The address the metrics listener binds (loopback unless given).
    public var host: String
    /// The token that `GET /metrics` on the main port needs (`Authorization: Bearer TOKEN`), or
    /// nil to answer it there as an unknown path.
    public var bearerToken: String?
    /// Whether the server records metrics at all (on by default): off, requests go through no
    /// metrics middleware and the stores record to the bootstrapped factory, as if the server
    /// were not there (`query-bench serve` compares the two).
    public var isRecording = true

    /// Metrics served nowhere unless a port or token is given.
    ///
    /// ```swift
    /// let metrics = MetricsConfiguration(port: 9464)
    /// ```
    public init(port: Int? = nil, host: String = "127.0.0.1", bearerToken: String? = nil) {
        self.port = port
        self.host = host
        self.bearerToken = bearerToken
    }
}
#endif

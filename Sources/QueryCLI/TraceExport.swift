// Part of the Tracing trait.
#if Tracing
import OTel
import QueryServer
import Tracing

/// `query serve --otlp-endpoint URL`: the process's tracer is swift-otel's, exporting with
/// OTLP/HTTP (protobuf) to `URL/v1/traces`; each request is a span, each store operation a span
/// inside it, each SQL statement a span inside that. The exporter runs in the server's service
/// group and sends its last spans when the server shuts down. OpenTelemetry's environment
/// variables (`OTEL_SERVICE_NAME`, `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_TRACES_SAMPLER`, …) override
/// these settings.
///
/// ```swift
/// try TraceExport.start(endpoint: "http://127.0.0.1:4318", in: &configuration)
/// ```
enum TraceExport {
    static func start(endpoint: String, in configuration: inout CloudKitServer.Configuration) throws {
        var settings = OTel.Configuration.default
        settings.serviceName = "query"
        settings.metrics.enabled = false  // served by GET /metrics
        settings.logs.enabled = false  // written to standard error
        settings.traces.enabled = true
        settings.traces.otlpExporter.endpoint = (endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint) + "/v1/traces"
        let backend = try OTel.makeTracingBackend(configuration: settings)
        InstrumentationSystem.bootstrap(backend.factory)
        configuration.tracesRequests = true
        configuration.companionServices.append(backend.service)
    }
}
#endif

"""An OpenTelemetry collector's OTLP/HTTP trace endpoint, written apart from the server: it
listens on a free loopback port, prints `listening PORT`, then decodes each POST /v1/traces
(ExportTraceServiceRequest, protobuf) with opentelemetry-proto and prints one JSON line per span:
its name, kind, trace ID, span ID, parent span ID and string attributes. It answers each export
with an empty ExportTraceServiceResponse, and stops when its standard input closes."""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if self.path != "/v1/traces":
            self.send_response(404)
            self.end_headers()
            return
        request = trace_service_pb2.ExportTraceServiceRequest()
        request.ParseFromString(body)
        for resource_spans in request.resource_spans:
            service = ""
            for attribute in resource_spans.resource.attributes:
                if attribute.key == "service.name":
                    service = attribute.value.string_value
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    attributes = {a.key: a.value.string_value for a in span.attributes if a.value.HasField("string_value")}
                    line = {
                        "service": service,
                        "name": span.name,
                        "kind": span.kind,
                        "traceId": span.trace_id.hex(),
                        "spanId": span.span_id.hex(),
                        "parentSpanId": span.parent_span_id.hex(),
                        "attributes": attributes,
                    }
                    print(json.dumps(line, sort_keys=True), flush=True)
        answer = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
print(f"listening {server.server_address[1]}", flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()

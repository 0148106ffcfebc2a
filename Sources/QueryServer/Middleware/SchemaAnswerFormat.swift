// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird
import NIOCore
import RecordStore

/// How the `schema` route answers: JSON (the default), or the schema as `.ckdb` text, CloudKit's
/// schema language, when asked with `?format=ckdb` or `Accept: text/plain`. `?format=json`
/// asks for JSON whatever the `Accept` header says; any other `format` is `BAD_REQUEST`.
///
/// ```swift
/// switch try SchemaAnswerFormat(request) {
/// case .json: JSONResponse.make(try await service.schema(in: namespace))
/// case .ckdb: SchemaAnswerFormat.ckdbResponse(try await service.schemaDocument(in: namespace))
/// }
/// ```
enum SchemaAnswerFormat: String {
    /// `{"recordTypes": [...]}` (``CloudKitService/schema(in:)``).
    case json
    /// The `.ckdb` text `query schema export` prints (``CloudKitService/schemaDocument(in:)``).
    case ckdb

    /// The format a request asks for: its `format` query parameter, else its `Accept` header
    /// (`text/plain` without `application/json` is `.ckdb`).
    init(_ request: Request) throws(ServerError) {
        if let parameter = request.uri.queryParameters.get("format") {
            guard let format = SchemaAnswerFormat(rawValue: String(parameter)) else {
                throw ServerError(.badRequest, "format is json or ckdb, not '\(String(parameter).prefix(40))'")
            }
            self = format
            return
        }
        let accepted = (request.headers[.accept] ?? "").lowercased()
        self = accepted.contains("text/plain") && !accepted.contains("application/json") ? .ckdb : .json
    }

    /// The `.ckdb` answer: the document's text as `text/plain; charset=utf-8`.
    static func ckdbResponse(_ document: CloudKitSchemaDocument) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: document.ckdbText)))
    }
}
#endif

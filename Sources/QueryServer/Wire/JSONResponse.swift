// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird
import NIOCore
import PredicateLanguage

/// The server's JSON responses.
enum JSONResponse {
    /// A JSON response.
    static func make(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        make(bytes: value.jsonBytes(), status: status)
    }

    /// A response of JSON bytes.
    static func make(bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// An answer the server writes straight into bytes (``QueryAnswer``, ``RecordsAnswer``) read
    /// back, for the library's methods that return a ``JSONValue``: the answer's shape is
    /// spelled once, by its writer.
    static func value(readingBack bytes: [UInt8]) throws(ServerError) -> JSONValue {
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw ServerError(.internalError, "the answer could not be read back: \(error)")
        }
    }
}
#endif

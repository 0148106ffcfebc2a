// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The one way a request is decoded: a `Decodable` request type (``RecordsQueryRequest``,
/// ``RecordsModifyRequest``, ...) from the ``JSONValue`` of its body, or a part of one from its
/// JSON at a path. A member that is missing or of the wrong kind is CloudKit's `BAD_REQUEST`
/// naming its path and the type expected (the `DecodingError`s of ``JSONValueDecoder``, worded
/// by ``JSONExpectation``):
///
/// - `query.recordType is missing (a string)`, for a member absent or null;
/// - `resultsLimit is a number from 1 to 200, not an array`, for one of the wrong kind;
/// - `the request body is a JSON object, not an array`.
///
/// A type's own checks (`records[0].recordName is empty`) throw their ``ServerError`` from
/// `init(from:)`, naming the path of `decoder.codingPath` (``Swift/Array/jsonPath``); it is
/// answered as it is.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(RecordsQueryRequest.self, from: body)
/// let operation = try RequestBodyDecoder.decode(SubscriptionsModifyRequest.Operation.self, from: json, at: "operations[0]")
/// ```
enum RequestBodyDecoder {
    /// Decodes `json`, the body (`path` empty) or the part of one at `path`.
    static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue, at path: String = "") throws(ServerError) -> T {
        let codingPath: [any CodingKey] = path.isEmpty ? [] : [JSONKey(path: path)]
        do {
            return try T(from: JSONValueDecoder(value: json, codingPath: codingPath, type: T.self))
        } catch let error as ServerError {
            throw error
        } catch let error as DecodingError {
            throw ServerError(decoding: error)
        } catch {
            throw ServerError(.badRequest, "\(path.isEmpty ? "the request body" : path): \(error)")
        }
    }
}

extension ServerError {
    /// The `BAD_REQUEST` of a request that did not decode, naming the member's path and what it
    /// should have been (the ``RequestMismatch`` of ``JSONValueDecoder``'s errors).
    init(decoding error: DecodingError) {
        func expected(_ context: DecodingError.Context, _ type: Any.Type?) -> String {
            (context.underlyingError as? RequestMismatch)?.expected ?? jsonExpectation(of: type) ?? "a value"
        }
        let reason: String
        switch error {
        case .typeMismatch(let type, let context):
            let path = context.codingPath.jsonPath
            guard let actual = (context.underlyingError as? RequestMismatch)?.actual else {
                reason = "\(path.isEmpty ? "the request body" : path): \(context.debugDescription)"
                break
            }
            reason = path.isEmpty ? "the request body is a JSON object, not \(actual)" : "\(path) is \(expected(context, type)), not \(actual)"
        case .keyNotFound(let key, let context):
            reason = "\((context.codingPath + [key]).jsonPath) is missing (\(expected(context, nil)))"
        case .valueNotFound(let type, let context):
            reason = "\(context.codingPath.jsonPath) is missing (\(expected(context, type)))"
        case .dataCorrupted(let context):
            let path = context.codingPath.jsonPath
            reason = path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            reason = "\(error)"
        }
        self.init(.badRequest, reason)
    }
}

extension DecodingError {
    /// The same error with `expected` as what the member at `path` should have been; an error
    /// deeper inside the member stays as it is.
    func expecting(_ expected: String, at path: [any CodingKey]) -> DecodingError {
        switch self {
        case .typeMismatch(let type, let context) where context.codingPath.count == path.count:
            let actual = (context.underlyingError as? RequestMismatch)?.actual
            return .typeMismatch(type, .init(codingPath: context.codingPath, debugDescription: "\(expected), not \(actual ?? "that")",
                                             underlyingError: RequestMismatch(expected: expected, actual: actual)))
        case .valueNotFound(let type, let context) where context.codingPath.count == path.count:
            return .valueNotFound(type, .init(codingPath: context.codingPath, debugDescription: "missing (\(expected))",
                                              underlyingError: RequestMismatch(expected: expected, actual: nil)))
        case .keyNotFound(let key, let context) where context.codingPath.count + 1 == path.count:
            return .keyNotFound(key, .init(codingPath: context.codingPath, debugDescription: "missing (\(expected))",
                                           underlyingError: RequestMismatch(expected: expected, actual: nil)))
        default:
            return self
        }
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird
import PredicateLanguage

/// CloudKit Web Services' error codes (`serverErrorCode`), each with the HTTP status CloudKit
/// answers it with.
///
/// ```swift
/// ServerErrorCode.zoneNotFound.status   // 404
/// ```
public enum ServerErrorCode: String, Sendable, Codable, CaseIterable {
    /// The request is malformed or asks for what the server refuses (400).
    case badRequest = "BAD_REQUEST"
    /// A signature, token or asset URL that does not verify (401).
    case authenticationFailed = "AUTHENTICATION_FAILED"
    /// A request the server does not answer for this caller or origin (403).
    case accessDenied = "ACCESS_DENIED"
    /// The record, route or asset asked for does not exist (404).
    case notFound = "NOT_FOUND"
    /// The zone named does not exist (404).
    case zoneNotFound = "ZONE_NOT_FOUND"
    /// A save whose change tag is not the stored record's (409).
    case conflict = "CONFLICT"
    /// A create of a record or subscription that already exists (409).
    case exists = "EXISTS"
    /// An operation of an atomic request that was not applied because another failed (400).
    case atomicError = "ATOMIC_ERROR"
    /// A body or asset larger than the server takes (413).
    case quotaExceeded = "QUOTA_EXCEEDED"
    /// A request without the credentials the server asks for (421).
    case authenticationRequired = "AUTHENTICATION_REQUIRED"
    /// A caller past its rate limit: retry after `retryAfter` seconds (429).
    case throttled = "THROTTLED"
    /// A server past its connection limit: retry later (503).
    case tryAgainLater = "TRY_AGAIN_LATER"
    /// The server's database cannot be reached now: retry after `retryAfter` seconds.
    case serviceUnavailable = "SERVICE_UNAVAILABLE"
    /// An error of the server itself (500).
    case internalError = "INTERNAL_ERROR"
    /// A sync token older than the history the server keeps: fetch everything again.
    case changeTokenExpired = "CHANGE_TOKEN_EXPIRED"

    /// The HTTP status of a request that failed with this code.
    public var status: HTTPResponse.Status {
        switch self {
        case .badRequest, .atomicError, .changeTokenExpired: .badRequest
        case .authenticationFailed: .unauthorized
        case .accessDenied: .forbidden
        case .notFound, .zoneNotFound: .notFound
        case .conflict, .exists: .conflict
        case .quotaExceeded: .contentTooLarge
        case .authenticationRequired: HTTPResponse.Status(code: 421, reasonPhrase: "Misdirected Request")
        case .throttled: .tooManyRequests
        case .tryAgainLater, .serviceUnavailable: .serviceUnavailable
        case .internalError: .internalServerError
        }
    }
}

/// A request the server refuses as a whole: its code and a reason for the client, answered as
/// CloudKit's error body `{uuid, serverErrorCode, reason}` with the code's HTTP status (it is
/// Hummingbird's `HTTPResponseError`: it makes its own answer).
///
/// ```swift
/// throw ServerError(.badRequest, "resultsLimit must be a number from 1 to 200")
/// ```
public struct ServerError: HTTPResponseError, Sendable, CustomStringConvertible {
    /// CloudKit's code, which decides the HTTP status.
    public let code: ServerErrorCode
    /// What was wrong and where, for the client.
    public let reason: String
    /// Seconds a client should wait (`THROTTLED`, `TRY_AGAIN_LATER` and `SERVICE_UNAVAILABLE` only).
    public let retryAfter: Int?
    /// The HTTP status when it is not the code's (405 for a wrong method).
    let statusOverride: HTTPResponse.Status?
    /// Header fields the answer carries besides its body (`Allow` with a 405, a rotated
    /// `X-Apple-CloudKit-Web-Auth-Token`).
    var headers: HTTPFields
    /// Where a user signs in, with `AUTHENTICATION_REQUIRED`: the body's `redirectURL`, as
    /// CloudKit answers a request that needs a signed-in user.
    public var redirectURL: String?

    /// An error; `retryAfter` only with `THROTTLED`, `TRY_AGAIN_LATER` and `SERVICE_UNAVAILABLE`.
    public init(_ code: ServerErrorCode, _ reason: String, retryAfter: Int? = nil) {
        self.init(code, reason, retryAfter: retryAfter, status: nil)
    }

    /// An error answered with another status than its code's, and extra header fields.
    init(_ code: ServerErrorCode, _ reason: String, retryAfter: Int? = nil, status: HTTPResponse.Status?, headers: HTTPFields = [:]) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
        self.statusOverride = status
        self.headers = headers
    }

    /// The HTTP status of the answer.
    public var status: HTTPResponse.Status { statusOverride ?? code.status }

    /// CloudKit's error answer, `{uuid, serverErrorCode, reason}` (and `retryAfter`), with the
    /// code's HTTP status and the error's header fields; `uuid` is the request's ID, Hummingbird's
    /// (`RequestContext.id`) laid out as a UUID.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var members: [String: JSONValue] = [
            "uuid": .string(RequestUUID.of(context)), "serverErrorCode": .string(code.rawValue), "reason": .string(reason),
        ]
        if let retryAfter { members["retryAfter"] = .integer(Int64(retryAfter)) }
        if let redirectURL { members["redirectURL"] = .string(redirectURL) }
        var response = JSONResponse.make(.object(members), status: status)
        for field in headers { response.headers.append(field) }
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }

    /// A refusal that needs a signed-in user: `AUTHENTICATION_REQUIRED` with where to sign in.
    static func signInRequired(_ reason: String, redirectURL: String) -> ServerError {
        var error = ServerError(.authenticationRequired, reason)
        error.redirectURL = redirectURL
        return error
    }

    /// The error with one more header field in its answer.
    func adding(_ name: HTTPField.Name, _ value: String) -> ServerError {
        var error = self
        error.headers[name] = value
        return error
    }

    /// Any error a route or middleware threw, as the error CloudKit answers it with: a
    /// ``ServerError`` as it is, Hummingbird's HTTP errors by their status, anything else
    /// `INTERNAL_ERROR`. (A request no route took is ``CloudKitErrorMiddleware``'s to tell.)
    static func answering(_ error: any Error) -> ServerError {
        switch error {
        case let error as ServerError: error
        case let error as any HTTPResponseError:
            ServerError(error.status.code >= 500 ? .internalError : .badRequest, "HTTP \(error.status.code) \(error.status.reasonPhrase)")
        default: ServerError(.internalError, "the server failed to answer")
        }
    }

    /// `BAD_REQUEST: resultsLimit is a number from 1 to 200`.
    public var description: String { "\(code.rawValue): \(reason)" }
}
#endif

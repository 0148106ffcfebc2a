// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// What a request's log line says beyond its method, route, status and duration, filled in as
/// the request goes down the middleware and reaches its route: the caller and namespace
/// authentication found, and how many records the answer carries. One per request
/// (``ServerRequestContext/requestLog``), shared by reference, since each middleware gets its own
/// copy of the context.
///
/// It holds no secret: a caller is a key ID, `apiToken` or `anyone`, never a token or signature.
///
/// ```swift
/// context.requestLog.update { $0.records = 12 }
/// ```
final class RequestLogEntry: Sendable {
    /// The parts of a log line.
    struct Fields: Sendable {
        /// Who sent the request: `key:KEYID`, `apiToken` or `anyone`.
        var caller: String?
        /// `development` or `production`.
        var environment: String?
        /// `public`, or `private` for a caller's private database.
        var database: String?
        /// The records of the answer (queries, lookups, modifies, changes).
        var records: Int?
        /// Why the request was refused before its route ran, if it was (``RefusalReason``).
        var refusal: RefusalReason?
        /// The bytes of the request's body read so far.
        var bodyBytes = 0
    }

    private let fields = LockedState(Fields())

    init() {}

    /// Changes some of the fields.
    func update(_ change: (inout Fields) -> Void) {
        fields.withLock { change(&$0) }
    }

    /// The fields so far.
    var current: Fields { fields.withLock { $0 } }

    /// Runs a check, and notes `reason` as the request's refusal when it throws.
    ///
    /// ```swift
    /// try context.requestLog.refuse(.rateLimit) { () throws(ServerError) in try limiter.admit(bucket) }
    /// ```
    func refuse<T, Failure: Error>(_ reason: RefusalReason, _ check: () throws(Failure) -> T) throws(Failure) -> T {
        do {
            return try check()
        } catch {
            update { $0.refusal = reason }
            throw error
        }
    }

    /// How a caller is named in the log (never a credential).
    static func name(of caller: RequestAuthenticator.Caller) -> String {
        switch caller {
        case .anyone: "anyone"
        case .key(let keyID): "key:\(keyID)"
        case .apiToken: "apiToken"
        case .user(let userRecordName): "user:\(userRecordName)"
        case .administrator: "administrator"
        }
    }

    /// The number of records of a JSON answer with a `records` array.
    static func recordCount(of answer: JSONValue) -> Int? {
        guard case .object(let members) = answer, case .array(let records)? = members["records"] else { return nil }
        return records.count
    }
}
#endif

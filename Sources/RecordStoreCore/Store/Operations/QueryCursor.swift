import Foundation

/// Where a query stopped: pass it to ``QueryOperation/init(cursor:)`` or
/// ``Store/records(continuingMatchFrom:desiredKeys:resultsLimit:costLimits:)`` for the next batch.
///
/// A cursor is opaque. Its string form (``stringValue``, base64url) carries the query, the
/// zone and the resume point, signed with HMAC-SHA256 under a key only its store knows; a
/// cursor changed by hand, made by another store, or used for another query or zone is
/// rejected with ``RecordStoreError/invalidCursor(_:)``.
///
/// In ``Mode/keyset`` mode (the default) the cursor holds the sort values and record name of
/// the last record returned, so records inserted or deleted between batches never make the
/// next batch repeat or skip another record. ``Mode/offset`` reproduces CloudKit, whose
/// cursors count matches: a record deleted before the offset makes the next batch skip one.
///
/// ```swift
/// let first = try await store.records(matching: query, resultsLimit: 100)
/// if let cursor = first.cursor {
///     let token = cursor.stringValue                       // print it, store it…
///     let next = try await store.records(continuingMatchFrom: try QueryCursor(string: token))
/// }
/// ```
public struct QueryCursor: Sendable, Hashable, CustomStringConvertible {
    /// How a cursor resumes.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// After the last record returned, by its sort values (stable under writes).
        case keyset
        /// After a number of matches, as CloudKit does (writes before the offset shift results).
        case offset
    }

    /// Why a cursor string was refused (``CursorProblem``).
    public typealias Problem = CursorProblem

    /// The signed token: base64url of the payload followed by its 32-byte HMAC-SHA256.
    public let stringValue: String

    /// Wraps a token; it is checked (signature, store, layout) when a store uses it.
    ///
    /// ```swift
    /// let cursor = try QueryCursor(string: "AQ3x…")
    /// ```
    public init(string: String) throws(RecordStoreError) {
        guard let bytes = Base64URL.decode(string), bytes.count > CursorSigner.signatureLength + 17 else {
            throw .invalidCursor(.malformed)
        }
        self.stringValue = string
    }

    package init(token: String) {
        self.stringValue = token
    }

    public var description: String { stringValue }
}

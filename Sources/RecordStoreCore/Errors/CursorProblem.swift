/// Why a cursor string was refused (``RecordStoreError/invalidCursor(_:)``); also known as
/// `QueryCursor.Problem`.
///
/// ```swift
/// RecordStoreError.invalidCursor(.tampered).description   // "Invalid cursor: the signature does not match: ..."
/// ```
public enum CursorProblem: Sendable, Hashable, CustomStringConvertible {
    /// Not a cursor: bad base64url, too short, or an unknown layout.
    case malformed
    /// The signature does not match the content: the cursor was changed.
    case tampered
    /// The cursor was made by another store.
    case foreignStore
    /// The cursor belongs to another query (record type, predicate or sorts); both are named.
    case queryMismatch(cursor: String, given: String)
    /// The cursor belongs to another zone.
    case zoneMismatch(cursor: String, given: String)

    public var description: String {
        switch self {
        case .malformed: "the text is not a cursor of this store (malformed)"
        case .tampered: "the signature does not match: the cursor was altered"
        case .foreignStore: "the cursor was made by another store"
        case .queryMismatch(let cursor, let given): "the cursor belongs to the query '\(cursor)', not '\(given)'"
        case .zoneMismatch(let cursor, let given): "the cursor belongs to zone '\(cursor)', not '\(given)'"
        }
    }
}

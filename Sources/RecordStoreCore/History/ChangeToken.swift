/// A place in a store's change history: what a client keeps after reading changes, and hands
/// back to read only what changed since (CloudKit's `syncToken`, `CKServerChangeToken`).
///
/// A token is opaque text, signed by the store like a ``QueryCursor``: it survives restarts, and
/// on PostgreSQL every server of the same store reads it. A token of a zone continues only that
/// zone; a token from ``Store/databaseChanges(since:limit:)`` continues only the database's zone
/// changes. A token older than the history the store keeps is refused with
/// ``RecordStoreError/changeTokenExpired(zone:)``: the client reads everything again.
///
/// ```swift
/// let first = try store.changes(in: .default)          // everything, and a token
/// // ... other clients save and delete ...
/// let next = try store.changes(in: .default, since: first.token)
/// next.changedRecords.count   // only what changed since `first`
/// ```
public struct ChangeToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token's text (base64url), as clients store and send it.
    public let stringValue: String

    /// A token from its text (checked only when used).
    ///
    /// ```swift
    /// let token = ChangeToken(stringValue: savedText)
    /// ```
    public init(stringValue: String) {
        self.stringValue = stringValue
    }

    public var description: String { stringValue }

    public init(from decoder: any Decoder) throws {
        stringValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}

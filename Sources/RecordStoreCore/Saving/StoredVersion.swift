import Foundation

/// What a save needs to know of a record already stored: its type, change tag and creation
/// date, and where the engine keeps it.
///
/// ```swift
/// let stored = try transaction.storedVersions(of: [id])[id]   // nil: not stored
/// ```
package struct StoredVersion: Sendable, Hashable {
    /// The record type the stored record has (a save may change it).
    package var recordType: String
    /// The stored change tag.
    package var changeTag: String?
    /// The stored creation date, carried over by an update.
    package var creationDate: Date?
    /// The engine's own handle on the stored row (SQLite's `rowid`); nil when the engine has none.
    package var rowReference: Int64?

    /// Creates a stored version.
    package init(recordType: String, changeTag: String?, creationDate: Date?, rowReference: Int64? = nil) {
        self.recordType = recordType
        self.changeTag = changeTag
        self.creationDate = creationDate
        self.rowReference = rowReference
    }
}

import Foundation

/// What a save needs to know of a record already stored: its type, change tag, creation
/// date and creator, and where the engine keeps it.
///
/// ```swift
/// let stored = try transaction.storedVersions(of: [id])[id]   // nil: not stored
/// ```
@_spi(StorageEngine) public struct StoredVersion: Sendable, Hashable {
    /// The record type the stored record has (a save may change it).
    @_spi(StorageEngine) public var recordType: String
    /// The stored change tag.
    @_spi(StorageEngine) public var changeTag: String?
    /// The stored creation date, carried over by an update.
    @_spi(StorageEngine) public var creationDate: Date?
    /// The stored creator (``Record/creatorUserRecordName``), carried over by an update.
    @_spi(StorageEngine) public var creatorUserRecordName: String?
    /// The engine's own handle on the stored row (SQLite's `rowid`); nil when the engine has none.
    @_spi(StorageEngine) public var rowReference: Int64?

    /// Creates a stored version.
    @_spi(StorageEngine) public init(
        recordType: String, changeTag: String?, creationDate: Date?, creatorUserRecordName: String? = nil, rowReference: Int64? = nil
    ) {
        self.recordType = recordType
        self.changeTag = changeTag
        self.creationDate = creationDate
        self.creatorUserRecordName = creatorUserRecordName
        self.rowReference = rowReference
    }
}

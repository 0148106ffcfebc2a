/// What one write asks of an engine: records to save and records to delete, in one
/// transaction (``StorageEngine/modify(_:mode:)``).
///
/// A deletion whose identifier is in ``expectedChangeTags`` happens only while the stored
/// record still has that change tag (otherwise the whole write is a conflict); other
/// deletions are unconditional, and deleting what is not stored does nothing.
///
/// ```swift
/// let changes = RecordChangeSet(saving: [paris], deleting: [oldID], expectedChangeTags: [oldID: "1f2e3d4c"])
/// let saved = try await engine.modify(changes, mode: .development)
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ModifyBatch`,
/// `PendingChangeSet`, `CommittedChanges` and `SchemaChange`.
@_spi(StorageEngine) public struct RecordChangeSet: Sendable {
    /// The records to save (insert, or update when their change tag matches the stored one).
    @_spi(StorageEngine) public var saving: [Record]
    /// The records to delete.
    @_spi(StorageEngine) public var deleting: [RecordID]
    /// The change tags some deletions expect the stored records to have.
    @_spi(StorageEngine) public var expectedChangeTags: [RecordID: String]
    /// The saves that replace whatever is stored, without checking change tags
    /// (``SavePolicy/allKeys``).
    @_spi(StorageEngine) public var overwriting: Set<RecordID>
    /// How far the saves may grow the schema (the store's ``SchemaLimits``; checked when the
    /// records are admitted, before anything is written).
    @_spi(StorageEngine) public var schemaLimits: SchemaLimits
    /// When known, the only fields the saves change of the records they update (a batch update's
    /// fields: it read the records it saves, and sets these): an engine may write only their
    /// columns, list members and full-text documents (``WritePlan/Write/changedFields``). Nil:
    /// any field may have changed.
    @_spi(StorageEngine) public var changedFields: Set<String>? = nil
    /// The user the saves are made by: the saved records' ``Record/lastModifiedUserRecordName``,
    /// and the ``Record/creatorUserRecordName`` of those the write creates. Nil: nobody named.
    @_spi(StorageEngine) public var author: String?
    /// How the saves' uniqueness-constraint conflicts are resolved (``ConstraintResolution``);
    /// ``MergePolicy/error`` by default.
    @_spi(StorageEngine) public var mergePolicy: MergePolicy = .error

    /// Creates a change set.
    @_spi(StorageEngine) public init(
        saving: [Record] = [], deleting: [RecordID] = [], expectedChangeTags: [RecordID: String] = [:], overwriting: Set<RecordID> = [],
        schemaLimits: SchemaLimits = .unlimited, author: String? = nil
    ) {
        self.author = author
        self.saving = saving
        self.deleting = deleting
        self.expectedChangeTags = expectedChangeTags
        self.overwriting = overwriting
        self.schemaLimits = schemaLimits
    }
}

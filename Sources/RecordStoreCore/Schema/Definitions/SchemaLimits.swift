/// How far saves may grow a store's schema in development mode: the fields of a record type,
/// the record types of the store, and the schema changes (new record types, new fields, field
/// types that change) one save may make. A save past a bound is refused with
/// ``RecordStoreError/schemaLimitExceeded(_:recordType:count:limit:)`` before anything is
/// written. Schema definitions (``Store/define(_:progress:)-5x8qf``, `.ckdb` files, Core Data
/// models) are not bounded: they are the store owner's own.
///
/// A store is unbounded unless it is opened with limits (`query serve` bounds both of its
/// environments with ``server``).
///
/// ```swift
/// let limits = SchemaLimits(fieldsPerRecordType: 50, recordTypes: 10, changesPerSave: 20)
/// let store = Store(engine: engine, mode: .development, schemaLimits: limits)
/// ```
public struct SchemaLimits: Sendable, Hashable {
    /// The most fields a record type may have (its system fields included).
    public var fieldsPerRecordType: Int
    /// The most record types a store may have.
    public var recordTypes: Int
    /// The most schema changes one save may make: record types created, fields added, field
    /// types that change.
    public var changesPerSave: Int

    /// Limits; each bound is at least 1.
    public init(fieldsPerRecordType: Int, recordTypes: Int, changesPerSave: Int) {
        self.fieldsPerRecordType = max(1, fieldsPerRecordType)
        self.recordTypes = max(1, recordTypes)
        self.changesPerSave = max(1, changesPerSave)
    }

    /// No bounds (a store's default).
    public static let unlimited = SchemaLimits(fieldsPerRecordType: .max, recordTypes: .max, changesPerSave: .max)

    /// The bounds of `query serve`'s stores: 200 fields a record type, 1,000 record types, 100
    /// schema changes a save.
    ///
    /// 200 fields keep every type within PostgreSQL's 1,600 columns a table: a string field
    /// that is queryable and sortable takes 7 columns (its value, its spelling, two folded forms
    /// and three sort keys), so 200 of them take 1,400, beside the 5 columns of the record's
    /// metadata. 100 changes bound the schema work (columns and indexes made) one save holds
    /// its environment's write lock for.
    public static let server = SchemaLimits(fieldsPerRecordType: 200, recordTypes: 1_000, changesPerSave: 100)

    /// The bounds ``RecordStoreError/schemaLimitExceeded(_:recordType:count:limit:)`` names.
    public enum Bound: String, Sendable, Hashable {
        /// ``SchemaLimits/fieldsPerRecordType``.
        case fieldsPerRecordType
        /// ``SchemaLimits/recordTypes``.
        case recordTypes
        /// ``SchemaLimits/changesPerSave``.
        case changesPerSave
    }
}

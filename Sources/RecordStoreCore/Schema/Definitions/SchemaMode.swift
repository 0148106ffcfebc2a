/// Whether the schema grows with the data (development) or is fixed (production), as in CloudKit.
///
/// ```swift
/// let store = Store.inMemory(mode: .production)
/// try store.define(RecordTypeSchema(name: "City", fields: [FieldSchema(name: "name", type: .string)]))
/// ```
public enum SchemaMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Record types, fields and indexes are created as records arrive (the default).
    case development
    /// The schema changes only through ``Store/define(_:progress:)-5x8qf``; queries and sorts need indexes.
    case production
}

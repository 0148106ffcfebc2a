/// What an engine does to its storage for a ``SchemaMigration``, step by step, inside the one
/// transaction in which ``SchemaMigrationProcedure`` runs them. The catalog is the procedure's;
/// each step is given the schemas it needs.
///
/// ```swift
/// var storage = MyMigrationStorage(transaction)
/// try await SchemaMigrationProcedure.run(migration, catalog: &catalog, storage: &storage)
/// ```
@_spi(StorageEngine) public protocol SchemaMigrationStorage {
    /// Whether the record type (of the stored schema) holds any record, in any zone.
    mutating func holdsRecords(_ recordType: RecordTypeSchema) async throws -> Bool
    /// Whether a record of the type holds no value in the field.
    mutating func lacksValues(_ field: FieldSchema, of recordType: RecordTypeSchema) async throws -> Bool
    /// Whether two records of the type in one zone hold the same values in these fields, none
    /// of them empty: a uniqueness constraint on them would be broken at once.
    mutating func sharesValues(_ fields: [String], of recordType: RecordTypeSchema) async throws -> Bool
    /// Drops every index of the type's fields (`old` declares them; `stripped` declares none),
    /// with whatever else is derived from them (derived columns, list members, full text).
    mutating func takeDownIndexes(from old: RecordTypeSchema, to stripped: RecordTypeSchema) async throws
    /// Drops a field's values (its columns) from the records of a type without indexes.
    mutating func removeField(_ field: FieldSchema, of recordType: RecordTypeSchema) async throws
    /// Moves a field's values to a new name, in a type without indexes.
    mutating func renameField(_ field: FieldSchema, to name: String, of recordType: RecordTypeSchema) async throws
    /// Renames a record type without indexes: its records (their type), its storage and its
    /// history (the type of its records' entries and tombstones).
    mutating func renameRecordType(_ recordType: RecordTypeSchema, to name: String) async throws
    /// Defines record types and templates as the engine's `define` does, on the catalog given.
    mutating func define(_ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], catalog: inout SchemaCatalog) async throws
    /// Gives `value` to the field of every record of the type that has none (the type has no indexes).
    mutating func fill(_ field: FieldSchema, of recordType: RecordTypeSchema, with value: FieldDefaultValue) async throws
}

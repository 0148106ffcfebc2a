import PredicateLanguage

/// The memory engine's side of a ``SchemaMigration``: a copy of the engine's state whose
/// records are renamed, trimmed and filled in place (their change tags, dates and history
/// positions untouched), which replaces the engine's state when every step succeeded.
///
/// ```swift
/// var storage = MemoryMigrationStorage(state: state)
/// try await SchemaMigrationProcedure.run(migration, catalog: &catalog, storage: &storage)
/// state = storage.state
/// ```
struct MemoryMigrationStorage: SchemaMigrationStorage {
    var state: MemoryEngine.State

    /// Changes every record of a type, in every zone.
    private mutating func update(_ recordType: String, _ change: (inout Record) -> Void) {
        for zone in state.records.keys {
            for id in state.records[zone]?.keys.map({ $0 }) ?? [] where state.records[zone]?[id]?.recordType == recordType {
                if var record = state.records[zone]?[id] {
                    change(&record)
                    state.records[zone]?[id] = record
                }
            }
        }
    }

    private func records(of recordType: String) -> [Record] {
        state.records.values.flatMap { $0.values.filter { $0.recordType == recordType } }
    }

    func holdsRecords(_ recordType: RecordTypeSchema) -> Bool {
        !records(of: recordType.name).isEmpty
    }

    func lacksValues(_ field: FieldSchema, of recordType: RecordTypeSchema) -> Bool {
        records(of: recordType.name).contains { ($0.fields[field.name] ?? .null).isNull }
    }

    func sharesValues(_ fields: [String], of recordType: RecordTypeSchema) -> Bool {
        var seen = Set<[Value]>()
        for record in records(of: recordType.name) {
            guard let key = UniquenessLookup.key(of: record, fields: fields) else { continue }
            if !seen.insert([.string(record.recordID.zoneID.zoneName)] + key).inserted { return true }
        }
        return false
    }

    /// The memory engine keeps no index.
    func takeDownIndexes(from old: RecordTypeSchema, to stripped: RecordTypeSchema) {}

    mutating func removeField(_ field: FieldSchema, of recordType: RecordTypeSchema) {
        update(recordType.name) { $0.fields[field.name] = nil }
    }

    mutating func renameField(_ field: FieldSchema, to name: String, of recordType: RecordTypeSchema) {
        update(recordType.name) { record in
            record.fields[name] = record.fields.removeValue(forKey: field.name)
        }
    }

    mutating func renameRecordType(_ recordType: RecordTypeSchema, to name: String) {
        update(recordType.name) { $0.recordType = name }
        state.history.renameRecordType(recordType.name, to: name)
    }

    func define(_ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], catalog: inout SchemaCatalog) throws {
        for schema in recordTypes { _ = try catalog.define(schema) }
        for template in templates { try catalog.define(template) }
    }

    mutating func fill(_ field: FieldSchema, of recordType: RecordTypeSchema, with value: FieldDefaultValue) {
        update(recordType.name) { record in
            if (record.fields[field.name] ?? .null).isNull { record.fields[field.name] = value.value }
        }
    }
}

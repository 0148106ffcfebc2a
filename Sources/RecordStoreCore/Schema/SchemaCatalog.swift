import PredicateLanguage

/// A change that admitting records made to the schema, which an engine applies to its storage.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `RecordChangeSet` and
/// `CommittedChanges`.
@_spi(StorageEngine) public enum SchemaChange: Sendable, Hashable {
    /// A new record type.
    case addedRecordType(String)
    /// A new field in a record type.
    case addedField(recordType: String, FieldSchema)
    /// A field's type changed: int64 widened to double, or a provisional list type settled.
    case changedFieldType(recordType: String, field: String, FieldType)
}

/// The record types of a store, and the rules that admit records into them.
@_spi(StorageEngine) public struct SchemaCatalog: Sendable, Hashable, Codable {
    /// The record types by name.
    @_spi(StorageEngine) public var recordTypes: [String: RecordTypeSchema] = [:]
    /// The fetch request templates by name (`Store.define(_:)`).
    @_spi(StorageEngine) public var fetchRequestTemplates: [String: FetchRequestTemplate] = [:]
    /// The record types a schema definition named (``define(_:)``: `Store.define`, a `.ckdb`
    /// file, a Core Data model, a deployment), as opposed to those that only saves created in
    /// development mode. `query serve` lists a declared type in every database's schema, and a
    /// type saves created only where its records are (the `schema` route).
    @_spi(StorageEngine) public var declaredRecordTypes: Set<String> = []
    /// The Core Data model version the schema was last built from (`Store.apply(_:)`), if any:
    /// what the next version's ``SchemaMigration`` migrates from.
    @_spi(StorageEngine) public var modelVersion: ModelVersion?

    /// An empty catalog.
    @_spi(StorageEngine) public init() {}

    /// The reserved fields a save admits in any mode: ``DeleteSelfReferences/fieldName`` and
    /// ``Record/parentFieldName``. A schema export leaves them out.
    @_spi(StorageEngine) public static let reservedFieldNames: Set<String> = [DeleteSelfReferences.fieldName, Record.parentFieldName]

    private enum CodingKeys: String, CodingKey {
        case recordTypes, fetchRequestTemplates, declaredRecordTypes, modelVersion
    }

    /// Decodes a stored catalog; one stored before templates existed has none, and in one stored
    /// before declarations were told apart, every record type counts as declared.
    @_spi(StorageEngine) public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordTypes = try container.decode([String: RecordTypeSchema].self, forKey: .recordTypes)
        fetchRequestTemplates = try container.decodeIfPresent([String: FetchRequestTemplate].self, forKey: .fetchRequestTemplates) ?? [:]
        declaredRecordTypes = try container.decodeIfPresent([String].self, forKey: .declaredRecordTypes).map(Set.init) ?? Set(recordTypes.keys)
        modelVersion = try container.decodeIfPresent(ModelVersion.self, forKey: .modelVersion)
    }

    /// Encodes the catalog; without templates it is stored exactly as before they existed, and so
    /// it is while every record type is declared, and without a model version. Otherwise the declared record types are stored
    /// by name, in order.
    @_spi(StorageEngine) public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recordTypes, forKey: .recordTypes)
        if !fetchRequestTemplates.isEmpty { try container.encode(fetchRequestTemplates, forKey: .fetchRequestTemplates) }
        if declaredRecordTypes != Set(recordTypes.keys) { try container.encode(declaredRecordTypes.sorted(), forKey: .declaredRecordTypes) }
        try container.encodeIfPresent(modelVersion, forKey: .modelVersion)
    }

    /// The fetch request templates in name order.
    @_spi(StorageEngine) public var sortedTemplates: [FetchRequestTemplate] {
        fetchRequestTemplates.values.sorted { $0.name < $1.name }
    }

    /// Adds or replaces a fetch request template after checking it: its name is not empty, its
    /// record type exists and its predicate parses.
    @_spi(StorageEngine) public mutating func define(_ template: FetchRequestTemplate) throws(RecordStoreError) {
        guard !template.name.isEmpty, !NulCharacter.isIn(template.name) else {
            throw .invalidFetchRequestTemplate(template.name, reason: "a template's name must not be empty or hold a NUL character")
        }
        guard recordTypes[template.recordType] != nil else {
            let unknown = RecordStoreError.unknownRecordType(
                template.recordType, suggestions: NameSuggestions.closest(to: template.recordType, among: recordTypes.keys))
            throw .invalidFetchRequestTemplate(template.name, reason: unknown.description)
        }
        _ = try template.predicate()
        fetchRequestTemplates[template.name] = template
    }

    /// The record types in name order.
    @_spi(StorageEngine) public var sorted: [RecordTypeSchema] {
        recordTypes.values.sorted { $0.name < $1.name }
    }

    /// Checks records against the schema, normalizes their numbers to the field types,
    /// and (in development mode) adds what is missing, within `limits`
    /// (``RecordStoreError/schemaLimitExceeded(_:recordType:count:limit:)`` past them). Returns
    /// the schema changes.
    ///
    /// `changedFields`, when given, says the records were read from the store and set only these
    /// fields (``RecordChangeSet/changedFields``): their other fields, admitted when they were
    /// saved, are not admitted again (``ChangedFieldAdmission``).
    @_spi(StorageEngine) public mutating func admit(
        _ records: inout [Record], mode: SchemaMode, limits: SchemaLimits = .unlimited, changing changedFields: Set<String>? = nil
    ) throws(RecordStoreError) -> [SchemaChange] {
        let changes = try admitUnbounded(&records, mode: mode, changing: changedFields)
        try limits.check(changes, catalog: self)
        return changes
    }

    /// ``admit(_:mode:limits:changing:)`` without limits.
    private mutating func admitUnbounded(
        _ records: inout [Record], mode: SchemaMode, changing changedFields: Set<String>?
    ) throws(RecordStoreError) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        var known = KnownFieldAdmission()
        var changed = changedFields.map(ChangedFieldAdmission.init(fields:))
        for index in records.indices {
            let recordType = records[index].recordType
            try Identifier.checkRecordType(recordType)
            let id = records[index].recordID
            if NulCharacter.isIn(id.zoneID.zoneName) { throw .zoneNotFound(id.zoneID) }
            if NulCharacter.isIn(id.recordName) { throw .invalidRecordName(id.recordName) }
            if recordTypes[recordType] == nil {
                guard mode == .development else { throw .schemaChangeNotAllowed(recordType: recordType, field: nil) }
                recordTypes[recordType] = RecordTypeSchema(name: recordType)
                changes.append(.addedRecordType(recordType))
            }
            if recordTypes[recordType]?.isAbstract == true { throw .abstractRecordType(recordType, record: id) }
            if var admission = changed {
                defer { changed = admission }
                let admitted = try admission.admit(&records[index]) { (probe: inout Record) throws(RecordStoreError) in
                    try admitFields(of: &probe, mode: mode, known: &known, changes: &changes)
                }
                if admitted { continue }
            }
            try admitFields(of: &records[index], mode: mode, known: &known, changes: &changes)
        }
        return changes
    }

    /// Admits a record's fields (its type admitted): the quick way (``KnownFieldAdmission``) when
    /// it can, otherwise field by field in name order.
    private mutating func admitFields(
        of record: inout Record, mode: SchemaMode, known: inout KnownFieldAdmission, changes: inout [SchemaChange]
    ) throws(RecordStoreError) {
        if known.admit(&record, in: self) { return }
        let recordType = record.recordType
        let changeCount = changes.count
        defer { if changes.count != changeCount { known.forget() } }
        for fieldName in record.fields.keys.sorted() {
            guard let value = record.fields[fieldName] else { continue }
            if value.isNull {
                record.fields[fieldName] = nil
                continue
            }
            if fieldName == DeleteSelfReferences.fieldName {
                try DeleteSelfReferences.check(value, of: record)
                admitReservedField(DeleteSelfReferences.fieldSchema, of: recordType, changes: &changes)
                continue
            }
            if fieldName == Record.parentFieldName {
                try ParentReference.check(value, of: record)
                admitReservedField(ParentReference.fieldSchema, of: recordType, changes: &changes)
                continue
            }
            try Identifier.checkField(fieldName, recordType: recordType)
            if NulCharacter.isIn(value) {
                throw .unsupportedValue(field: fieldName, recordType: recordType, reason: "a string holds a NUL character (U+0000), which cannot be stored")
            }
            // Strings are kept as the client spelled them (engines compare their NFC forms).
            let normalized = try admit(value, field: fieldName, recordType: recordType, mode: mode, changes: &changes)
            record.fields[fieldName] = normalized
        }
    }

    /// Adds a reserved field to a record type that lacks it, in any mode: the field of
    /// ``DeleteSelfReferences`` (its presence is what makes deletions look for the type's
    /// `DELETE_SELF` references) or the parent (``Record/parent``); both are system fields.
    private mutating func admitReservedField(_ field: FieldSchema, of recordType: String, changes: inout [SchemaChange]) {
        guard var schema = recordTypes[recordType], schema.field(named: field.name) == nil else { return }
        schema.fields.append(field)
        recordTypes[recordType] = schema
        changes.append(.addedField(recordType: recordType, field))
    }

    /// Admits one field value; returns it normalized to the field's type.
    private mutating func admit(
        _ value: Value, field fieldName: String, recordType: String, mode: SchemaMode, changes: inout [SchemaChange]
    ) throws(RecordStoreError) -> Value {
        if case .object = value {
            throw .unsupportedValue(field: fieldName, recordType: recordType, reason: "objects are not a field type (use separate fields or records)")
        }
        let valueType = FieldType(of: value)
        if valueType == nil, case .list(let members) = value, !members.isEmpty {
            throw .unsupportedValue(field: fieldName, recordType: recordType, reason: "a list must hold members of one type, and no lists, objects or nulls")
        }
        guard var schema = recordTypes[recordType] else { return value }
        guard let position = schema.fields.firstIndex(where: { $0.name == fieldName }) else {
            guard mode == .development else { throw .schemaChangeNotAllowed(recordType: recordType, field: fieldName) }
            var field = schema.justInTimeIndexes.field(named: fieldName, type: valueType ?? .list(.string))
            field.isProvisional = valueType == nil
            schema.fields.append(field)
            recordTypes[recordType] = schema
            changes.append(.addedField(recordType: recordType, field))
            return value
        }
        let field = schema.fields[position]
        guard let valueType else { return value }  // an empty list fits any list field
        if let normalized = Self.normalize(value, of: valueType, to: field.type) {
            return normalized
        }
        if field.isProvisional, valueType.isList {
            schema.fields[position].type = valueType
            schema.fields[position].isProvisional = false
            schema.fields[position].isSortable = false
            recordTypes[recordType] = schema
            changes.append(.changedFieldType(recordType: recordType, field: fieldName, valueType))
            return value
        }
        if mode == .development, let widened = Self.widening(field.type, valueType) {
            schema.fields[position].type = widened
            recordTypes[recordType] = schema
            changes.append(.changedFieldType(recordType: recordType, field: fieldName, widened))
            return Self.normalize(value, of: valueType, to: widened) ?? value
        }
        throw .typeMismatch(field: fieldName, recordType: recordType, schemaType: field.type, valueType: valueType.description)
    }

    /// The value converted to the field type when the conversion is exact, or nil.
    @_spi(StorageEngine) public static func normalize(_ value: Value, of valueType: FieldType, to fieldType: FieldType) -> Value? {
        if valueType == fieldType { return value }
        switch (value, fieldType) {
        case (.int(let integer), .double):
            let converted = Double(integer)
            return Int64(exactly: converted) == integer ? .double(converted) : nil
        case (.double(let double), .int64):
            return Int64(exactly: double).map(Value.int)
        case (.int(let integer), .bool) where integer == 0 || integer == 1:
            // CloudKit has no boolean type: its clients send a Core Data Boolean as INT64 0 or 1.
            return .bool(integer == 1)
        case (.list(let members), .list(let elementType)):
            var converted: [Value] = []
            converted.reserveCapacity(members.count)
            for member in members {
                guard let memberType = FieldType(of: member), let normalized = normalize(member, of: memberType, to: elementType) else {
                    return nil
                }
                converted.append(normalized)
            }
            return .list(converted)
        default:
            return nil
        }
    }

    /// The wider type an int64 field becomes when a fractional double arrives.
    @_spi(StorageEngine) public static func widening(_ fieldType: FieldType, _ valueType: FieldType) -> FieldType? {
        switch (fieldType, valueType) {
        case (.int64, .double): .double
        case (.list(.int64), .list(.double)): .list(.double)
        default: nil
        }
    }

    /// Adds or replaces a record type (``Store/define(_:)``): its fields are added or take the
    /// given type and index flags, the fields it leaves out stay as they are, and its
    /// ``RecordTypeSchema/justInTimeIndexes`` is the given one. Returns the changes.
    @_spi(StorageEngine) public mutating func define(_ schema: RecordTypeSchema) throws(RecordStoreError) -> [SchemaChange] {
        try Identifier.checkRecordType(schema.name)
        var changes: [SchemaChange] = []
        var merged = recordTypes[schema.name] ?? RecordTypeSchema(name: schema.name)
        if recordTypes[schema.name] == nil { changes.append(.addedRecordType(schema.name)) }
        declaredRecordTypes.insert(schema.name)
        merged.justInTimeIndexes = schema.justInTimeIndexes
        merged.parentType = schema.parentType
        merged.isAbstract = schema.isAbstract
        for field in schema.fields {
            // The reserved fields (DeleteSelfReferences, the parent) come back when a type's schema is defined again.
            if !Self.reservedFieldNames.contains(field.name) { try Identifier.checkField(field.name, recordType: schema.name) }
            if let position = merged.fields.firstIndex(where: { $0.name == field.name }) {
                let existing = merged.fields[position]
                if existing.type != field.type {
                    guard existing.isProvisional || Self.widening(existing.type, field.type) != nil else {
                        throw .typeMismatch(field: field.name, recordType: schema.name, schemaType: existing.type, valueType: field.type.description)
                    }
                    changes.append(.changedFieldType(recordType: schema.name, field: field.name, field.type))
                }
                merged.fields[position] = field
            } else {
                merged.fields.append(field)
                changes.append(.addedField(recordType: schema.name, field))
            }
        }
        try mergeRelationships(schema.relationships, into: &merged, changes: &changes)
        // The declaration states the type's constraints whole, as it states its just-in-time indexes.
        for constraint in schema.uniquenessConstraints {
            guard !constraint.isEmpty else {
                throw .invalidFieldName("", recordType: schema.name)
            }
            for name in constraint {
                guard let field = merged.field(named: name) else {
                    throw .unknownField(name, recordType: schema.name, suggestions: NameSuggestions.closest(to: name, among: merged.fields.map(\.name)))
                }
                guard !field.type.isList else {
                    throw .unsupportedValue(field: name, recordType: schema.name, reason: "a uniqueness constraint cannot hold a list field")
                }
            }
        }
        merged.uniquenessConstraints = schema.uniquenessConstraints
        recordTypes[schema.name] = merged
        return changes
    }
}

import PredicateLanguage

/// The quick way through ``SchemaCatalog/admit(_:mode:)`` for the common record: every field
/// already in its record type, each value of the field's type or one that converts to it
/// exactly. Such a record changes no schema and cannot be refused, so its fields need not be
/// taken in name order (the order that makes the full admission's first error and its new
/// columns the same on every run): each is one lookup by name, and only a converted value is
/// written back. Any other record (a new field, a null, a type change, a NUL character) goes
/// through the full admission, untouched.
///
/// ```swift
/// var known = KnownFieldAdmission()
/// if !known.admit(&record, in: catalog) { /* the full admission, field by field */ }
/// ```
struct KnownFieldAdmission {
    /// The valid field names of each record type with their types, as the catalog stood when
    /// they were looked up (``forget()`` drops them when it changes).
    private var fieldTypes: [String: [String: FieldType]] = [:]

    /// Admits a record whose fields the catalog has, normalizing converted values in place;
    /// false, with the record unchanged, when it needs the full admission.
    mutating func admit(_ record: inout Record, in catalog: SchemaCatalog) -> Bool {
        let types = fieldTypes(of: record.recordType, in: catalog)
        var converted: [(name: String, value: Value)] = []
        for (name, value) in record.fields {
            guard let fieldType = types[name], !value.isNull, !NulCharacter.isIn(value) else { return false }
            guard let valueType = FieldType(of: value) else {
                // An empty list fits any field, as the full admission has it; objects and
                // lists of mixed members are refused there.
                guard case .list(let members) = value, members.isEmpty else { return false }
                continue
            }
            if valueType == fieldType { continue }
            guard let normalized = SchemaCatalog.normalize(value, of: valueType, to: fieldType) else { return false }
            converted.append((name, normalized))
        }
        for (name, value) in converted { record.fields[name] = value }
        return true
    }

    /// Drops what was looked up (the catalog changed).
    mutating func forget() {
        fieldTypes.removeAll(keepingCapacity: true)
    }

    /// The valid field names of a record type with their types.
    private mutating func fieldTypes(of recordType: String, in catalog: SchemaCatalog) -> [String: FieldType] {
        if let known = fieldTypes[recordType] { return known }
        var types: [String: FieldType] = [:]
        for field in catalog.recordTypes[recordType]?.fields ?? [] {
            guard (try? Identifier.checkField(field.name, recordType: recordType)) != nil else { continue }
            types[field.name] = field.type
        }
        fieldTypes[recordType] = types
        return types
    }
}

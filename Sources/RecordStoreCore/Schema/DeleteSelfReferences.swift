import PredicateLanguage

/// CloudKit's reference action `DELETE_SELF`, kept per record: a record whose reference field
/// holds a `DELETE_SELF` reference is deleted when the record it references is deleted (and the
/// records that reference it with `DELETE_SELF` in turn), in the same transaction.
///
/// CloudKit keeps the action on each reference value; the store keeps it on the record, in the
/// reserved field ``fieldName`` (`___deleteSelf`, a `LIST<STRING>`): the names of the record's
/// `REFERENCE` and `LIST<REFERENCE>` fields whose references carry `DELETE_SELF` (every member of
/// a named list does). The field appears in a type's schema the first time one of its records
/// names a field, in development and production alike (it is a system field, as CloudKit's
/// `___` fields are), and that is what tells a save to look for such records: when a record is
/// deleted, `DeletionRuleExpansion` looks through each reference field of each type that has
/// the reserved field (by the field's index, `field IN {deleted}` or `ANY field IN {deleted}`)
/// and deletes the records found whose reserved field names that field. A record the same save
/// writes is judged by the caller's version, as with every deletion rule.
///
/// `query serve` maps the wire's `{"recordName", "zoneID", "action": "DELETE_SELF"}` onto this
/// field and back; library users may set it themselves:
///
/// ```swift
/// var child = Record(recordType: "Item", recordID: RecordID(recordName: "i1"), fields: [
///     "list": .reference(Reference(recordName: "l1")),
/// ])
/// DeleteSelfReferences.setFields(["list"], on: &child)
/// try store.save([child])
/// try store.delete([RecordID(recordName: "l1")])   // i1 is deleted with it
/// ```
public enum DeleteSelfReferences {
    /// The reserved field holding the names of a record's `DELETE_SELF` reference fields.
    public static let fieldName = "___deleteSelf"

    /// The names of a record's fields whose references carry `DELETE_SELF` (none when the
    /// reserved field is absent).
    ///
    /// ```swift
    /// DeleteSelfReferences.fields(of: child)   // ["list"]
    /// ```
    public static func fields(of record: Record) -> Set<String> {
        fields(in: record.fields[fieldName])
    }

    /// The field names a value of the reserved field holds.
    static func fields(in value: Value?) -> Set<String> {
        guard case .list(let members)? = value else { return [] }
        var names = Set<String>()
        for case .string(let name) in members { names.insert(name) }
        return names
    }

    /// Sets the fields whose references carry `DELETE_SELF` (sorted); none removes the reserved field.
    ///
    /// ```swift
    /// DeleteSelfReferences.setFields(["parent"], on: &record)
    /// ```
    public static func setFields(_ names: Set<String>, on record: inout Record) {
        record.fields[fieldName] = names.isEmpty ? nil : .list(names.sorted().map(Value.string))
    }

    /// The schema of the reserved field: a list of strings without an index (a save reads it
    /// from the records the reference indexes find).
    static var fieldSchema: FieldSchema {
        FieldSchema(name: fieldName, type: .list(.string), isQueryable: false, isSortable: false)
    }

    /// Checks a record's reserved field: a list of strings, each naming a field of the record
    /// that holds a reference or a list of references.
    static func check(_ value: Value, of record: Record) throws(RecordStoreError) {
        func refuse(_ reason: String) -> RecordStoreError {
            .unsupportedValue(field: fieldName, recordType: record.recordType, reason: reason)
        }
        guard case .list(let members) = value else {
            throw refuse("it lists the record's DELETE_SELF reference fields (a list of strings), not \(value.typeName)")
        }
        for member in members {
            guard case .string(let name) = member else {
                throw refuse("it lists the record's DELETE_SELF reference fields by name (strings), not \(member.typeName)")
            }
            switch record.fields[name] {
            case .reference?: continue
            case .list(let references)? where references.allSatisfy({ if case .reference = $0 { true } else { false } }): continue
            default:
                throw refuse("it names '\(name)', which is not a reference or a list of references of the record")
            }
        }
    }

    /// The record types whose records may hold `DELETE_SELF` references, each with its
    /// reference fields: where a save looks for the records a deletion takes along.
    static func referencingFields(in catalog: SchemaCatalog) -> [(recordType: String, fields: [FieldSchema])] {
        catalog.sorted.compactMap { schema in
            guard schema.field(named: fieldName) != nil else { return nil }
            let fields = schema.fields.filter { $0.type == .reference || $0.type == .list(.reference) }
            return fields.isEmpty ? nil : (schema.name, fields)
        }
    }
}

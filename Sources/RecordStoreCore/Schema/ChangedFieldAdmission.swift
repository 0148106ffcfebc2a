import PredicateLanguage

/// The way through ``SchemaCatalog/admit(_:mode:limits:changing:)`` for a batch update's records
/// (``RecordChangeSet/changedFields``): each was read from the store, where its fields were
/// admitted when they were saved, and sets only the changed fields. So only those are admitted,
/// as a record holding them alone; and a record that gives them the values the previous record
/// of its type gave takes that record's admitted values (a batch update sets the same values on
/// every record: one admission per record type, not one per record).
///
/// A record that holds or sets a reserved field (``DeleteSelfReferences``, the parent) goes
/// through the full admission: those are checked against the record's other fields.
///
/// ```swift
/// var changed = ChangedFieldAdmission(fields: ["timezone"])
/// let admitted = try changed.admit(&record) { (probe: inout Record) throws(RecordStoreError) in
///     try admitFields(of: &probe, mode: mode, known: &known, changes: &changes)
/// }
/// if !admitted { /* the full admission of the whole record */ }
/// ```
struct ChangedFieldAdmission {
    /// The fields the records set.
    let fields: Set<String>
    /// By record type, what the last record admitted gave the fields (absent: removed) and what
    /// it was admitted as.
    private var last: [String: (given: [String: Value], admitted: [String: Value])] = [:]

    init(fields: Set<String>) {
        self.fields = fields
    }

    /// Admits a record's changed fields by `admit` (which admits a record holding them alone) or
    /// as the last record of its type had them admitted; false, with the record unchanged, when
    /// it needs the full admission.
    mutating func admit(
        _ record: inout Record, by admit: (inout Record) throws(RecordStoreError) -> Void
    ) throws(RecordStoreError) -> Bool {
        guard !fields.contains(DeleteSelfReferences.fieldName), !fields.contains(Record.parentFieldName),
            record.fields[DeleteSelfReferences.fieldName] == nil
        else { return false }
        if let known = last[record.recordType], gives(record, known.given) {
            apply(known.admitted, to: &record)
            return true
        }
        var given: [String: Value] = [:]
        for name in fields { given[name] = record.fields[name] }
        var probe = Record(recordType: record.recordType, recordID: record.recordID, fields: given)
        try admit(&probe)
        last[record.recordType] = (given, probe.fields)
        apply(probe.fields, to: &record)
        return true
    }

    /// Whether the record gives the changed fields these values, to the letter (the same case
    /// of `Value`, the same bytes of a string: the admitted value keeps the client's spelling).
    private func gives(_ record: Record, _ given: [String: Value]) -> Bool {
        fields.allSatisfy { Self.identical(record.fields[$0], given[$0]) }
    }

    /// Whether two values are the same to the letter: `Value`'s `==` also equates an integer
    /// with an equal double, and two spellings of a string. Dates, bytes, locations, references
    /// and objects are never taken as the same (they are admitted again).
    private static func identical(_ lhs: Value?, _ rhs: Value?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil), (.null?, .null?): true
        case (.bool(let a)?, .bool(let b)?): a == b
        case (.int(let a)?, .int(let b)?): a == b
        case (.double(let a)?, .double(let b)?): a.bitPattern == b.bitPattern
        case (.string(let a)?, .string(let b)?): a.utf8.elementsEqual(b.utf8)
        case (.list(let a)?, .list(let b)?): a.count == b.count && zip(a, b).allSatisfy { identical($0, $1) }
        default: false
        }
    }

    /// Writes the admitted values of the changed fields into the record (a dropped one is removed).
    private func apply(_ admitted: [String: Value], to record: inout Record) {
        for name in fields where record.fields[name] != admitted[name] {
            record.fields[name] = admitted[name]
        }
    }
}

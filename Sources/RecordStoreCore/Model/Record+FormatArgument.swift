import PredicateLanguage

/// A record, or its identifier, passed to a format string stands for a reference to it, as
/// Core Data takes a managed object and CloudKit a `CKRecord` or `CKRecord.ID`: it matches the
/// reference fields that point at the record, and the to-manys that hold it.
///
/// ```swift
/// let sales = try store.record(for: RecordID(recordName: "d1"))!
/// let staff = try store.records(ofType: "Employee",
///                               matching: FormatPredicate(format: "department == %@", sales))
/// let hers = try store.records(ofType: "Department",
///                              matching: FormatPredicate(format: "employees CONTAINS %@", ada))
/// ```
extension Record: FormatArgument {
    /// `.reference` to this record (its name and zone).
    public var formatArgumentValue: Value { .reference(recordID.reference) }
}

extension RecordID: FormatArgument {
    /// `.reference` to the record this identifier names.
    public var formatArgumentValue: Value { .reference(reference) }
}

import PredicateLanguage

/// What a principal may read of a query, and why a permission is refused: the one place the
/// server's answers and `query find --as` take them from.
extension SecurityPolicy {
    /// The query a principal may run: the query itself when they read every record of its type,
    /// the query narrowed to the records they created (`creatorUserRecordName == user`) when
    /// `READ` is granted to `_creator` alone, or nil when they may read no record of the type.
    ///
    /// ```swift
    /// let query = try RecordQuery(recordType: "Note", predicate: .truePredicate)
    /// policy.readable(query, for: SecurityPrincipal(userRecordName: "_ada"))?.predicate
    /// // TRUEPREDICATE, or creatorUserRecordName == "_ada" under GRANT READ TO "_creator" alone
    /// ```
    public func readable(_ query: RecordQuery, for principal: SecurityPrincipal) -> RecordQuery? {
        switch access(.read, to: query.recordType, for: principal) {
        case .allRecords:
            return query
        case .none:
            return nil
        case .ownRecords:
            // A constant format with one bound value: it always parses.
            guard let own = try? FormatPredicate(
                format: "\(MetadataField.creatorUserRecordName.rawValue) == %@", argumentArray: [principal.userRecordName.map(Value.string) ?? .null])
            else { return nil }
            let narrowed: FormatPredicate = query.predicate == .truePredicate ? own : .and([query.predicate, own])
            return RecordQuery(checkedRecordType: query.recordType, predicate: narrowed, sorts: query.sorts)
        }
    }

    /// Why a principal does not have a permission on a record type (of a record, when named): the
    /// type, the permission, and the roles it is granted to.
    ///
    /// ```swift
    /// SecurityPolicy().refusal(.create, on: "Note", for: .anonymous)
    /// // record type 'Note' grants CREATE to '_icloud', not to a caller who is not signed in
    /// ```
    public func refusal(_ permission: CloudKitSchemaPermission, on recordType: String, for principal: SecurityPrincipal, recordName: String? = nil) -> String {
        let granted = effectiveGrants(for: recordType).filter { $0.permissions.contains(permission) }.map(\.role)
        let roles = granted.isEmpty ? "no role" : granted.map { "'\($0)'" }.joined(separator: ", ")
        let record = recordName.map { "record '\($0)': " } ?? ""
        let caller = principal.userRecordName == nil ? "a caller who is not signed in" : "this user"
        return "\(record)record type '\(recordType)' grants \(permission.rawValue) to \(roles), not to \(caller)"
    }
}

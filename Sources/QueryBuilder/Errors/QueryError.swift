import RecordStore

/// What went wrong building or running a ``Query``.
///
/// ```swift
/// do { _ = try Item.query(in: context).where("quantity > 1").firstOrInsert() }
/// catch QueryError.tooComplex(let reason) { print(reason) }
/// // the condition 'quantity > 1' is a format string, not an equality from a dictionary or key path
/// ```
public enum QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `firstOrInsert()` cannot tell the new model's values from the query's conditions.
    case tooComplex(reason: String)
    /// `.or(...)` was called on a query without any condition before it.
    case orWithoutPrecedingCondition(recordType: String)
    /// A key path that the model's `attributeKeyPaths` table does not list.
    case unknownKeyPath(recordType: String, keyPath: String)
    /// The model has no record name (it is not `Identifiable`, and declares no `recordName` it has been given).
    case missingRecordName(recordType: String)
    /// A limit or offset below zero.
    case invalidPaging(String)
    /// An aggregate asked of a query that includes pending changes while the context holds some:
    /// aggregates run in the store over saved records.
    case pendingChangesNotAggregated(recordType: String, pendingChangeCount: Int)
    /// `sum`, `average`, `min` or `max` of a query with a limit or offset: they cover every match.
    case aggregateOfPagedQuery(function: String)
    /// A context's save found that a model it updates or deletes was changed or deleted by
    /// someone else since the context read it; nothing was saved.
    case modelChangedElsewhere(recordType: String, recordName: String)

    public var description: String {
        switch self {
        case .tooComplex(let reason):
            "The query is too complex to insert a model from its conditions: \(reason)"
        case .orWithoutPrecedingCondition(let type):
            "'.or(...)' on a '\(type)' query needs a condition before it: start the query with '.where(...)'"
        case .unknownKeyPath(let type, let keyPath):
            "The key path \(keyPath) is not in '\(type).attributeKeyPaths': add it to the table to use it in a query"
        case .missingRecordName(let type):
            "This '\(type)' model has no record name: make the type Identifiable, or fetch it with a 'recordName' property"
        case .invalidPaging(let message):
            message
        case .pendingChangesNotAggregated(let type, let count):
            "The context holds \(count) pending change(s) to '\(type)' records, and aggregates run in the store over saved records: "
                + "call save() first, or use .includesPendingChanges(false) to aggregate the saved records only"
        case .aggregateOfPagedQuery(let function):
            "'\(function)' covers every match, but the query has a limit or offset: remove them to aggregate"
        case .modelChangedElsewhere(let type, let name):
            "The '\(type)' model '\(name)' was changed or deleted elsewhere since this context read it, so nothing was saved: "
                + "fetch it again and reapply your change, or call rollback()"
        }
    }
}

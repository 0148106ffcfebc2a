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
        }
    }
}

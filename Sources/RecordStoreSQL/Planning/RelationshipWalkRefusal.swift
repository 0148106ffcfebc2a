@_spi(StorageEngine) import RecordStoreCore

/// A walk that SQL planned under a condition only the data can tell (an `@sum` or `@avg` whose
/// members are small enough to add up exactly as the evaluator adds them), refused while the
/// statement runs when the condition fails: the dialect's ``SQLDialect/refusal(_:depending:)``
/// fails the statement with this message, and the engine turns it back into
/// ``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)``, so that the store walks the
/// query in Swift instead.
///
/// ```swift
/// let message = RelationshipWalkRefusal.message(relationship: "employees", recordType: "Department")
/// RelationshipWalkRefusal.error(in: "error: " + message + "12")   // .relationshipWalkNotPlanned("employees", recordType: "Department")
/// ```
@_spi(StorageEngine) public enum RelationshipWalkRefusal {
    /// What starts the message (the database may put text before it, and adds the value the
    /// refusal depends on after it).
    @_spi(StorageEngine) public static let marker = "query: relationship walk refused in SQL: "

    /// The message naming the relationship and its record type: `...: Department.employees;`.
    @_spi(StorageEngine) public static func message(relationship: String, recordType: String) -> String {
        "\(marker)\(recordType).\(relationship);"
    }

    /// The refusal a database error's message carries, or nil.
    @_spi(StorageEngine) public static func error(in message: String) -> RecordStoreError? {
        guard let start = message.range(of: marker) else { return nil }
        let named = message[start.upperBound...].prefix { $0 != ";" }
        guard let dot = named.firstIndex(of: ".") else { return nil }
        return .relationshipWalkNotPlanned(String(named[named.index(after: dot)...]), recordType: String(named[..<dot]))
    }
}

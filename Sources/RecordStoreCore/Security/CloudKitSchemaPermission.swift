/// A permission a `GRANT` line gives a role: `READ`, `CREATE` or `WRITE`.
///
/// ```swift
/// CloudKitSchemaPermission(rawValue: "WRITE")   // .write
/// ```
public enum CloudKitSchemaPermission: String, Sendable, Hashable, Codable, CaseIterable {
    /// `READ`: read records of the type.
    case read = "READ"
    /// `CREATE`: create records of the type.
    case create = "CREATE"
    /// `WRITE`: change records of the type.
    case write = "WRITE"
}

/// A grant as CloudKit's schema language prints it.
extension CloudKitSchemaGrant: CustomStringConvertible {
    /// The line as the language prints it: `GRANT READ TO "_world"`.
    ///
    /// ```swift
    /// CloudKitSchemaGrant(permissions: [.read], role: "_world").description   // GRANT READ TO "_world"
    /// ```
    public var description: String {
        "GRANT \(permissions.map(\.rawValue).joined(separator: ", ")) TO \(SchemaLanguageIdentifier.printed(role))"
    }
}

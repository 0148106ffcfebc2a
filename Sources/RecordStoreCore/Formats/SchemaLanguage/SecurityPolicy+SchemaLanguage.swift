/// A security policy and the `.ckdb` documents that declare it.
extension SecurityPolicy {
    /// The policy after a document is applied: its roles join the policy's, and each record type
    /// it names takes its grants (a type without grants goes back to the defaults). Types the
    /// document does not name keep theirs.
    ///
    /// ```swift
    /// let document = try CloudKitSchemaDocument(parsing: """
    ///     DEFINE SCHEMA
    ///         CREATE ROLE Moderator;
    ///         RECORD TYPE Note (title STRING, GRANT READ TO "_world", GRANT WRITE TO Moderator);
    ///     """)
    /// SecurityPolicy().applying(document).grants["Note"]?.count   // 2
    /// ```
    public func applying(_ document: CloudKitSchemaDocument) -> SecurityPolicy {
        var policy = self
        for role in document.roles where !policy.roles.contains(role) { policy.roles.append(role) }
        for recordType in document.recordTypes {
            policy.grants[recordType.name] = recordType.grants.isEmpty ? nil : recordType.grants
        }
        return policy
    }

    /// A document with the policy's roles, and each of its record types with the grants the
    /// policy declares for it.
    ///
    /// ```swift
    /// let exported = policy.annotating(CloudKitSchemaDocument(storeSchema: schema))
    /// ```
    public func annotating(_ document: CloudKitSchemaDocument) -> CloudKitSchemaDocument {
        var annotated = document
        annotated.roles = roles
        for index in annotated.recordTypes.indices {
            annotated.recordTypes[index].grants = grants[annotated.recordTypes[index].name] ?? []
        }
        return annotated
    }
}

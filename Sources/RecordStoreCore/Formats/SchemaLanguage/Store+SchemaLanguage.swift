extension Store {
    /// Applies a `.ckdb` document: creates its record types and fields and sets their index
    /// flags, in either schema mode. Nothing is changed when the document cannot be applied
    /// (an `ASSET` field, a field whose type would change: see
    /// ``CloudKitSchemaDocument/storeSchemas(applyingTo:)``). Fields and types the document does
    /// not mention are left as they are. The document's roles join the store's
    /// ``SecurityPolicy``, and each record type it names takes its grants (none: the defaults);
    /// a server enforces them in the public database. System fields' attributes are not stored. `progress` hears each index a PostgreSQL
    /// store builds on a table that holds records (``define(_:progress:)-5x8qf``).
    ///
    /// ```swift
    /// try store.apply(try CloudKitSchemaDocument(parsing: text))
    /// ```
    public func apply(_ document: CloudKitSchemaDocument, progress: StoreOpeningProgressHandler? = nil) throws(SchemaLanguageError) {
        // The async form's work, waited for: its document errors come back as a result, so that
        // `synchronously` (whose errors are the store's) passes them through unchanged.
        let outcome: Result<Void, SchemaLanguageError>
        do {
            outcome = try synchronously { () async -> Result<Void, SchemaLanguageError> in
                do throws(SchemaLanguageError) {
                    try await self.apply(document, progress: progress)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw .store(error)
        }
        try outcome.get()
    }

    /// Applies a `.ckdb` document (async); see the synchronous form.
    ///
    /// ```swift
    /// try await store.apply(try CloudKitSchemaDocument(parsing: text))
    /// ```
    public func apply(_ document: CloudKitSchemaDocument, progress: StoreOpeningProgressHandler? = nil) async throws(SchemaLanguageError) {
        let current: [RecordTypeSchema]
        do { current = try await schema() } catch { throw .store(error) }
        let planned = try document.storeSchemas(applyingTo: current)
        do {
            try await define(recordTypes: planned, templates: [], progress: progress)
            let policy = try await securityPolicy()
            let applied = policy.applying(document)
            if applied != policy { try await setSecurityPolicy(applied) }
        } catch {
            throw .store(error)
        }
    }

    /// The store's schema as a `.ckdb` document (``CloudKitSchemaDocument/init(storeSchema:)``):
    /// system fields in their default form, with the roles and grants of its ``SecurityPolicy``,
    /// and without the ``SystemRecordTypes``.
    ///
    /// ```swift
    /// print(try store.schemaDocument().ckdbText)
    /// ```
    public func schemaDocument() throws(RecordStoreError) -> CloudKitSchemaDocument {
        try synchronously { try await self.schemaDocument() }
    }

    /// The store's schema as a `.ckdb` document (async).
    ///
    /// ```swift
    /// print(try await store.schemaDocument().ckdbText)
    /// ```
    public func schemaDocument() async throws(RecordStoreError) -> CloudKitSchemaDocument {
        let schema = try await schema().filter { !SystemRecordTypes.contains($0.name) }
        return try await securityPolicy().annotating(CloudKitSchemaDocument(storeSchema: schema))
    }
}

extension Store {
    /// Applies a `.ckdb` document: creates its record types and fields and sets their index
    /// flags, in either schema mode. Nothing is changed when the document cannot be applied
    /// (an `ASSET` field, a field whose type would change: see
    /// ``CloudKitSchemaDocument/storeSchemas(applyingTo:)``). Fields and types the document does
    /// not mention are left as they are. Roles and grants are not enforced (the store keeps none),
    /// and system fields' attributes are not stored. `progress` hears each index a PostgreSQL
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
        do { try await define(recordTypes: planned, templates: [], progress: progress) } catch { throw .store(error) }
    }

    /// The store's schema as a `.ckdb` document (``CloudKitSchemaDocument/init(storeSchema:)``):
    /// system fields in their default form, no grants.
    ///
    /// ```swift
    /// print(try store.schemaDocument().ckdbText)
    /// ```
    public func schemaDocument() throws(RecordStoreError) -> CloudKitSchemaDocument {
        CloudKitSchemaDocument(storeSchema: try schema())
    }

    /// The store's schema as a `.ckdb` document (async).
    ///
    /// ```swift
    /// print(try await store.schemaDocument().ckdbText)
    /// ```
    public func schemaDocument() async throws(RecordStoreError) -> CloudKitSchemaDocument {
        CloudKitSchemaDocument(storeSchema: try await schema())
    }
}

extension Store {
    /// All record types, by name.
    ///
    /// ```swift
    /// for type in try store.schema() { print(type) }
    /// ```
    public func schema() throws(RecordStoreError) -> [RecordTypeSchema] {
        try synchronously { try await self.schema() }
    }

    /// All record types, by name (async).
    ///
    /// ```swift
    /// for type in try await store.schema() { print(type) }
    /// ```
    public func schema() async throws(RecordStoreError) -> [RecordTypeSchema] {
        try await engine.catalog().sorted
    }

    /// The schema of one record type, or nil when it does not exist.
    ///
    /// ```swift
    /// try store.schema(for: "City")?.field(named: "population")?.type   // .int64
    /// ```
    public func schema(for recordType: String) throws(RecordStoreError) -> RecordTypeSchema? {
        try synchronously { try await self.schema(for: recordType) }
    }

    /// The schema of one record type, or nil when it does not exist (async).
    ///
    /// ```swift
    /// try await store.schema(for: "City")?.field(named: "population")?.type   // .int64
    /// ```
    public func schema(for recordType: String) async throws(RecordStoreError) -> RecordTypeSchema? {
        try await engine.catalog().recordTypes[recordType]
    }

    /// Adds a record type or fields, or changes index flags (in either mode). On a type that
    /// holds records, the indexes a change adds are built and filled; `progress` hears each index
    /// a PostgreSQL store builds (concurrently, after the change commits). The embedded engines
    /// build them in the change's transaction and report nothing. When that later build fails,
    /// the change stays committed and the error is
    /// ``RecordStoreError/indexBuildPending(recordTypes:reason:)``: the indexes are built when
    /// the store is next opened.
    ///
    /// ```swift
    /// try store.define(RecordTypeSchema(name: "City", fields: [
    ///     FieldSchema(name: "name", type: .string, isSearchable: true),
    ///     FieldSchema(name: "population", type: .int64, isQueryable: false, isSortable: true),
    /// ]))
    /// ```
    public func define(_ recordType: RecordTypeSchema, progress: StoreOpeningProgressHandler? = nil) throws(RecordStoreError) {
        try synchronously { try await self.define(recordType, progress: progress) }
    }

    /// Adds a record type or fields, or changes index flags (async); see the synchronous form.
    ///
    /// ```swift
    /// try await store.define(RecordTypeSchema(name: "City", fields: [FieldSchema(name: "name", type: .string)])) { step in
    ///     print(step)   // Building the indexes of City: 1/2
    /// }
    /// ```
    public func define(_ recordType: RecordTypeSchema, progress: StoreOpeningProgressHandler? = nil) async throws(RecordStoreError) {
        try await define(recordTypes: [recordType], templates: [], progress: progress)
    }

    /// Adds or changes several record types: the form for types whose relationships name each
    /// other, which must be defined together. Everything is checked first, so an error leaves
    /// the store as it was.
    ///
    /// ```swift
    /// try store.define([
    ///     RecordTypeSchema(name: "Department", relationships: [.toMany("employees", destination: "Employee", inverse: "department")]),
    ///     RecordTypeSchema(name: "Employee", relationships: [.toOne("department", destination: "Department")]),
    /// ])
    /// ```
    public func define(_ recordTypes: [RecordTypeSchema], progress: StoreOpeningProgressHandler? = nil) throws(RecordStoreError) {
        try synchronously { try await self.define(recordTypes, progress: progress) }
    }

    /// Adds or changes several record types together (async); see the synchronous form.
    ///
    /// ```swift
    /// try await store.define([department, employee])
    /// ```
    public func define(_ recordTypes: [RecordTypeSchema], progress: StoreOpeningProgressHandler? = nil) async throws(RecordStoreError) {
        try await define(recordTypes: recordTypes, templates: [], progress: progress)
    }

    /// Defines record types, then fetch request templates, in one transaction of the engine:
    /// the one path of every schema file (`.ckdb`, Core Data models). An error (a field whose
    /// type would change, a template that cannot be defined, a failure of the storage) leaves
    /// the store as it was.
    package func define(
        recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], progress: StoreOpeningProgressHandler? = nil
    ) async throws(RecordStoreError) {
        try await engine.define(recordTypes, templates: templates, progress: progress)
    }
}

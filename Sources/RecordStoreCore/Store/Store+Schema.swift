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

    /// Adds a record type or fields, or changes index flags (in either mode).
    ///
    /// ```swift
    /// try store.define(RecordTypeSchema(name: "City", fields: [
    ///     FieldSchema(name: "name", type: .string, isSearchable: true),
    ///     FieldSchema(name: "population", type: .int64, isQueryable: false, isSortable: true),
    /// ]))
    /// ```
    public func define(_ recordType: RecordTypeSchema) throws(RecordStoreError) {
        try synchronously { try await self.define(recordType) }
    }

    /// Adds a record type or fields, or changes index flags (async).
    ///
    /// ```swift
    /// try await store.define(RecordTypeSchema(name: "City", fields: [FieldSchema(name: "name", type: .string)]))
    /// ```
    public func define(_ recordType: RecordTypeSchema) async throws(RecordStoreError) {
        try await engine.define(recordType)
    }

    /// Defines record types, then fetch request templates: the one path of every schema file
    /// (`.ckdb`, Core Data models). All of it is first tried on a copy of the current catalog,
    /// so an error (a field whose type would change, a template that cannot be defined) leaves
    /// the store as it was.
    package func define(recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate]) async throws(RecordStoreError) {
        var trial = try await engine.catalog()
        for recordType in recordTypes { _ = try trial.define(recordType) }
        for template in templates { try trial.define(template) }
        for recordType in recordTypes { try await engine.define(recordType) }
        for template in templates { try await engine.define(template) }
    }
}

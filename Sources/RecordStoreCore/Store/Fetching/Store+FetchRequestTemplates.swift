import PredicateLanguage

/// Named fetch request templates, as Core Data's `fetchRequestTemplate(forName:)` and
/// `fetchRequestFromTemplate(withName:substitutionVariables:)`.
extension Store {
    /// Adds a fetch request template to the schema, or replaces the one of the same name.
    /// Refused with ``RecordStoreError/invalidFetchRequestTemplate(_:reason:)`` when its name is
    /// empty, its record type does not exist or its predicate does not parse.
    ///
    /// ```swift
    /// try store.define(FetchRequestTemplate(name: "HighEarners", recordType: "Employee", predicateFormat: "salary > $MINIMUM"))
    /// ```
    public func define(_ template: FetchRequestTemplate) throws(RecordStoreError) {
        try synchronously { try await self.define(template) }
    }

    /// Adds a fetch request template to the schema (async); see the synchronous form.
    ///
    /// ```swift
    /// try await store.define(FetchRequestTemplate(name: "All", recordType: "Employee"))
    /// ```
    public func define(_ template: FetchRequestTemplate) async throws(RecordStoreError) {
        try await engine.define(template)
    }

    /// The fetch request templates, by name.
    ///
    /// ```swift
    /// try store.fetchRequestTemplates().map(\.name)   // ["HighEarners"]
    /// ```
    public func fetchRequestTemplates() throws(RecordStoreError) -> [FetchRequestTemplate] {
        try synchronously { try await self.fetchRequestTemplates() }
    }

    /// The fetch request templates, by name (async).
    ///
    /// ```swift
    /// try await store.fetchRequestTemplates().map(\.name)   // ["HighEarners"]
    /// ```
    public func fetchRequestTemplates() async throws(RecordStoreError) -> [FetchRequestTemplate] {
        try await engine.catalog().sortedTemplates
    }

    /// A fetch request from the named template with its `$VARIABLES` bound, as Core Data's
    /// `fetchRequestFromTemplate(withName:substitutionVariables:)`; it runs like any other
    /// (``fetch(_:)-ucfn``, ``count(for:)-7co01``) and can be changed first (sorts, batch size).
    /// An unknown name is ``RecordStoreError/unknownFetchRequestTemplate(_:known:)``; a variable
    /// of the predicate without a value is ``RecordStoreError/missingSubstitutionVariable(_:template:variables:)``.
    ///
    /// ```swift
    /// var request = try store.fetchRequest(template: "HighEarners", substitutionVariables: ["MINIMUM": 100_000])
    /// request.sortDescriptors = [Sort("salary", ascending: false)]
    /// let earners = try store.fetch(request).records
    /// ```
    public func fetchRequest(template name: String, substitutionVariables: [String: Value] = [:]) throws(RecordStoreError) -> FetchRequest {
        try synchronously { try await self.fetchRequest(template: name, substitutionVariables: substitutionVariables) }
    }

    /// A fetch request from the named template with its `$VARIABLES` bound (async); see the synchronous form.
    ///
    /// ```swift
    /// let request = try await store.fetchRequest(template: "HighEarners", substitutionVariables: ["MINIMUM": 100_000])
    /// ```
    public func fetchRequest(template name: String, substitutionVariables: [String: Value] = [:]) async throws(RecordStoreError) -> FetchRequest {
        let catalog = try await engine.catalog()
        guard let template = catalog.fetchRequestTemplates[name] else {
            throw .unknownFetchRequestTemplate(name, known: catalog.sortedTemplates.map(\.name))
        }
        return try template.fetchRequest(substitutionVariables: substitutionVariables)
    }
}

extension FetchRequestTemplate {
    /// The template of a Core Data model's `<fetchRequest>`: its name, entity, predicate and
    /// fetch limit and whether it includes sub-entities. Its batch size, result type and other settings belong to the caller's fetch.
    ///
    /// ```swift
    /// let templates = model.fetchRequestTemplates.map(FetchRequestTemplate.init(coreData:))
    /// ```
    public init(coreData template: CoreDataFetchRequestTemplate) {
        self.init(
            name: template.name, recordType: template.entity, predicateFormat: template.predicateString,
            fetchLimit: template.fetchLimit ?? 0, includesSubentities: template.includesSubentities)
    }
}

import PredicateLanguage

extension FetchRequestTemplate {
    /// A fetch request from the template with its variables bound to `variables`; every free
    /// variable of the predicate must have a value (others are ignored, as in Core Data).
    ///
    /// ```swift
    /// let request = try template.fetchRequest(substitutionVariables: ["MINIMUM": 100_000])
    /// ```
    public func fetchRequest(substitutionVariables variables: [String: Value]) throws(RecordStoreError) -> FetchRequest {
        let predicate = try predicate()
        let needed = predicate?.variableNames.sorted() ?? []
        if let missing = needed.first(where: { variables[$0] == nil }) {
            throw .missingSubstitutionVariable(missing, template: name, variables: needed)
        }
        var request = FetchRequest(entityName: recordType, predicate: predicate?.substituting(variables))
        request.fetchLimit = fetchLimit
        request.includesSubentities = includesSubentities ?? true
        return request
    }
}

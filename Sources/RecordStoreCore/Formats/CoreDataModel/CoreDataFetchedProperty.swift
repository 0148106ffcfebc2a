/// A fetched property of an entity: a named, stored query whose results Core Data computes
/// when read (`<fetchedProperty name="peers"><fetchRequest …/></fetchedProperty>`). It is not
/// stored, so it maps to no field.
///
/// ```swift
/// model.entity(named: "Employee")?.fetchedProperties.first?.fetchRequest.predicateString
/// ```
public struct CoreDataFetchedProperty: Sendable, Hashable, Codable {
    /// The property's name.
    public var name: String
    /// The query it runs.
    public var fetchRequest: CoreDataFetchRequestTemplate

    /// Creates a fetched property.
    public init(name: String, fetchRequest: CoreDataFetchRequestTemplate) {
        self.name = name
        self.fetchRequest = fetchRequest
    }
}

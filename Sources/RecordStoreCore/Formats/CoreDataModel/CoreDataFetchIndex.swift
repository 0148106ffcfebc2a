/// A fetch index of an entity: a named index over one or more properties
/// (`<fetchIndex name="byName"><fetchIndexElement …/></fetchIndex>`).
///
/// ```swift
/// let index = CoreDataFetchIndex(name: "byName", elements: [CoreDataFetchIndexElement(property: "name")])
/// index.elements.map(\.property)   // ["name"]
/// ```
public struct CoreDataFetchIndex: Sendable, Hashable, Codable {
    /// The index's name.
    public var name: String
    /// Its properties, in order.
    public var elements: [CoreDataFetchIndexElement]

    /// Creates a fetch index.
    public init(name: String, elements: [CoreDataFetchIndexElement]) {
        self.name = name
        self.elements = elements
    }
}

/// One property of a fetch index (`<fetchIndexElement property="name" type="Binary" order="ascending"/>`).
///
/// ```swift
/// CoreDataFetchIndexElement(property: "lastName", kind: .binary, isAscending: true)
/// ```
///
/// Elements with an `expression` instead of a property are refused when a model is read.
public struct CoreDataFetchIndexElement: Sendable, Hashable, Codable {
    /// The kind of index structure.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// `Binary`: an ordinary (B-tree) index.
        case binary = "Binary"
        /// `RTree`: a spatial (R-tree) index, for ranges over two numbers.
        case rTree = "RTree"
    }

    /// The attribute (or to-one relationship) indexed.
    public var property: String
    /// The index structure.
    public var kind: Kind
    /// Whether the index is in ascending order (`order="ascending"`).
    public var isAscending: Bool

    /// Creates an index element.
    public init(property: String, kind: Kind = .binary, isAscending: Bool = true) {
        self.property = property
        self.kind = kind
        self.isAscending = isAscending
    }
}

/// The version of a Core Data model that a store's schema was last built from: the version's
/// name (`Library 2` for `Library 2.xcdatamodel`) and its `userDefinedModelVersionIdentifier`.
/// The store keeps it with its schema; ``SchemaMigration`` says which version it migrates from.
///
/// ```swift
/// ModelVersion(name: "Library 2", identifier: "2").description   // Library 2 (2)
/// ```
public struct ModelVersion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The version's name, if the model was read from a version folder or bundle.
    public var name: String?
    /// The model's `userDefinedModelVersionIdentifier`, if set.
    public var identifier: String?

    /// Creates a version stamp.
    public init(name: String?, identifier: String?) {
        self.name = name
        self.identifier = identifier
    }

    /// `Library 2 (2)`, `Library 2`, `(2)`, or `unnamed` when neither is known.
    public var description: String {
        switch (name, identifier) {
        case (let name?, let identifier?): "\(name) (\(identifier))"
        case (let name?, nil): name
        case (nil, let identifier?): "(\(identifier))"
        case (nil, nil): "unnamed"
        }
    }
}

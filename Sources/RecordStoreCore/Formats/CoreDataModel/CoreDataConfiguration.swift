/// A configuration of a Core Data model: a named set of entities, one store's worth
/// (`<configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/></configuration>`).
///
/// ```swift
/// model.configurations.first?.entities   // ["Note"]
/// ```
public struct CoreDataConfiguration: Sendable, Hashable, Codable {
    /// The configuration's name.
    public var name: String
    /// Whether it is meant for a CloudKit-backed store (`usedWithCloudKit="YES"`).
    public var isUsedWithCloudKit: Bool
    /// The names of its entities, in the order written.
    public var entities: [String]

    /// Creates a configuration.
    public init(name: String, isUsedWithCloudKit: Bool = false, entities: [String] = []) {
        self.name = name
        self.isUsedWithCloudKit = isUsedWithCloudKit
        self.entities = entities
    }
}

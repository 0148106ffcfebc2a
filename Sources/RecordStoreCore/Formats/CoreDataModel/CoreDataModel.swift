/// A Core Data model read from an Xcode model file (`.xcdatamodeld`, `.xcdatamodel` or its
/// `contents`): its entities, fetch request templates and configurations, as plain values.
///
/// ```swift
/// let model = try CoreDataModelReader.read(at: "Company.xcdatamodeld")
/// model.versionName                                            // "Company 2"
/// model.entity(named: "Employee")?.attribute(named: "salary")?.type   // .double
/// model.fetchRequestTemplate(named: "HighEarners")?.predicateString   // "salary > $MINIMUM"
/// let recordTypes = model.recordTypeSchemas()                  // one per concrete entity
/// ```
///
/// What is read, ignored and refused:
/// - Read: entities (name, `representedClassName`, `parentEntity`, `isAbstract`), attributes,
///   relationships, fetch indexes (and the older `<compoundIndexes>`), uniqueness constraints,
///   fetched properties, fetch request templates, configurations, the model's
///   `userDefinedModelVersionIdentifier`, and the `renamingIdentifier` of entities and
///   properties (a migration to this version follows them: `Store.apply(_:)`).
/// - Ignored, because they do not change what is stored or fetched: the editor's layout
///   (`<elements>`), `<userInfo>` dictionaries, code generation and tool settings
///   (`codeGenerationType`, `usesScalarValueType`, `syncable`, `lastSavedToolsVersion`,
///   `systemVersion`, `minimumToolsVersion`, `sourceLanguage`, …), migration hashes
///   (`versionHashModifier`), Spotlight and external-storage hints, CloudKit encryption
///   (`allowsCloudEncryption`: the store keeps values as they are), date validation bounds
///   (`minDateTimeInterval`, `maxDateTimeInterval`), and fetch requests' in-memory settings
///   (`includePropertyValues`, `includePendingChanges`, `returnObjectsAsFaults`).
/// - Refused with ``CoreDataModelError/unsupported(file:line:message:)``: composite attributes
///   (`Composite`, `<compositeAttribute>`), `Object ID` attributes, derived attributes
///   (`derived`, `derivationExpression`), fetch index elements over an expression, and any
///   element or attribute this reader does not know, so that nothing that may change meaning is
///   dropped silently.
public struct CoreDataModel: Sendable, Hashable, Codable {
    /// The name of the version read from a model bundle (`Company 2` for
    /// `Company 2.xcdatamodel`), or the model folder's name; nil when read from text.
    public var versionName: String?
    /// The model's `userDefinedModelVersionIdentifier`, if not empty.
    public var versionIdentifier: String?
    /// The entities, in the order written.
    public var entities: [CoreDataEntity]
    /// The fetch request templates at the model's top level, in the order written.
    public var fetchRequestTemplates: [CoreDataFetchRequestTemplate]
    /// The configurations, in the order written.
    public var configurations: [CoreDataConfiguration]

    /// Creates a model.
    ///
    /// ```swift
    /// CoreDataModel(entities: [CoreDataEntity(name: "Tag", attributes: [CoreDataAttribute(name: "label", type: .string)])])
    /// ```
    public init(
        versionName: String? = nil, versionIdentifier: String? = nil, entities: [CoreDataEntity] = [],
        fetchRequestTemplates: [CoreDataFetchRequestTemplate] = [], configurations: [CoreDataConfiguration] = []
    ) {
        self.versionName = versionName
        self.versionIdentifier = versionIdentifier
        self.entities = entities
        self.fetchRequestTemplates = fetchRequestTemplates
        self.configurations = configurations
    }

    /// Reads a model from the text of a `contents` file; `file` names it in errors.
    ///
    /// ```swift
    /// let model = try CoreDataModel(parsing: text, file: "Company.xcdatamodel/contents")
    /// ```
    public init(parsing text: String, file: String = "contents") throws(CoreDataModelError) {
        self = try CoreDataModelParser(file: file).parseModel(try XMLElementReader.read(text, file: file))
    }

    /// The entity with this name, if any.
    public func entity(named name: String) -> CoreDataEntity? {
        entities.first { $0.name == name }
    }

    /// The top-level fetch request template with this name, if any.
    public func fetchRequestTemplate(named name: String) -> CoreDataFetchRequestTemplate? {
        fetchRequestTemplates.first { $0.name == name }
    }

    /// The entity and its parents, the entity first; stops at a missing parent or a cycle.
    ///
    /// ```swift
    /// model.lineage(of: "Manager").map(\.name)   // ["Manager", "Employee", "Person"]
    /// ```
    public func lineage(of entityName: String) -> [CoreDataEntity] {
        var chain: [CoreDataEntity] = []
        var next: String? = entityName
        while let name = next, let entity = entity(named: name), !chain.contains(where: { $0.name == name }) {
            chain.append(entity)
            next = entity.parentEntity
        }
        return chain
    }

    /// The attributes of an entity with those it inherits, the root entity's first, as Core
    /// Data orders them.
    ///
    /// ```swift
    /// model.attributes(of: "Employee").map(\.name)   // ["birthDate", "name", "hireDate", "salary", …]
    /// ```
    public func attributes(of entityName: String) -> [CoreDataAttribute] {
        lineage(of: entityName).reversed().flatMap(\.attributes)
    }

    /// The relationships of an entity with those it inherits, the root entity's first.
    public func relationships(of entityName: String) -> [CoreDataRelationship] {
        lineage(of: entityName).reversed().flatMap(\.relationships)
    }
}

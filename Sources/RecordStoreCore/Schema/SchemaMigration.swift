/// A migration of a store's schema to a newer version of a Core Data model, as Core Data's
/// lightweight migration does it: record types and fields added, renamed (`renamingIdentifier`)
/// and removed, optional fields made required with their default, index changes. Each engine
/// performs it in one transaction; records keep their change tags, dates and history positions,
/// so change tokens issued before it stay valid.
///
/// `CoreDataModel.migration(from:)` computes it against a store's schema (and refuses what
/// lightweight migration cannot do); `Store.apply(_:)` performs it and returns it.
///
/// ```swift
/// let migration = try store.apply(try CoreDataModelReader.read(at: "Library.xcdatamodeld"))
/// print(migration)
/// // Library → Library 2 (2):
/// //   rename record type Ebook to DigitalBook
/// //   rename field Book.name to title
/// //   …
/// ```
public struct SchemaMigration: Sendable, Hashable, CustomStringConvertible {
    /// The model version the store was built from, if it remembers one.
    public var fromVersion: ModelVersion?
    /// The model version applied.
    public var toVersion: ModelVersion
    /// Each record type of the new version, in the model's order.
    public var recordTypes: [RecordTypeMigration]
    /// The new version's fetch request templates.
    public var templates: [FetchRequestTemplate]
    /// The steps, in order, for people to read.
    public var steps: [SchemaMigrationStep]

    /// Creates a migration.
    public init(
        fromVersion: ModelVersion?, toVersion: ModelVersion, recordTypes: [RecordTypeMigration], templates: [FetchRequestTemplate] = [],
        steps: [SchemaMigrationStep] = []
    ) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.recordTypes = recordTypes
        self.templates = templates
        self.steps = steps
    }

    /// Whether it changes nothing in the schema (the same version applied again).
    public var isEmpty: Bool { steps.isEmpty }

    /// Whether defining the target record types does all of it: nothing renamed, removed or
    /// filled in, and nothing to check on the records.
    public var isAdditive: Bool {
        recordTypes.allSatisfy { !$0.restructures && $0.mustHaveValues.isEmpty && $0.mustBeEmpty.isEmpty }
    }

    /// `FROM → TO:` and one step a line, or `FROM → TO: nothing to migrate`.
    public var description: String {
        let head = "\(fromVersion?.description ?? "no model version") → \(toVersion)"
        guard !steps.isEmpty else { return "\(head): nothing to migrate" }
        return "\(head):" + steps.map { "\n  \($0)" }.joined()
    }
}

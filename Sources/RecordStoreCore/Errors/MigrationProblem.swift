/// Why a schema migration (`Store.apply(_:)` of a newer Core Data model version) cannot
/// be done as Core Data's lightweight migration would: each problem names the record type and
/// the field. ``RecordStoreError/migrationRefused(_:)`` lists them all; nothing was changed.
///
/// ```swift
/// do {
///     try store.apply(try CoreDataModelReader.read(at: "Library.xcdatamodeld"))
/// } catch .migrationRefused(let problems) {
///     for problem in problems { print(problem) }
///     // Book.pages: its type would change from int64 to string, which lightweight migration cannot do
/// }
/// ```
public enum MigrationProblem: Sendable, Hashable, CustomStringConvertible {
    /// A field would change type (other than an INT64 widened to DOUBLE).
    case typeChanged(recordType: String, field: String, from: FieldType, to: FieldType)
    /// A required field without a default value is new to a record type that holds records:
    /// they would break the rule at once.
    case requiredWithoutDefault(recordType: String, field: String)
    /// A field becomes required without a default value, and records lack a value for it.
    case missingValues(recordType: String, field: String)
    /// A record type would be renamed onto the name of a stored type that stays (no type of
    /// the new version takes it). (A stored field that no new field takes is removed before
    /// the renames run, so a field's new name is always free.)
    case nameTaken(recordType: String, field: String?, name: String)
    /// The store's schema was built from another model version than the one the migration was
    /// planned from (another process applied a version meanwhile): apply the model again.
    case versionChanged(planned: ModelVersion?, stored: ModelVersion?)
    /// The engine cannot perform this step (an engine outside this package that implements no
    /// migration): only additions and index changes are.
    case unsupportedByEngine(engine: String, step: String)
    /// A uniqueness constraint is new to a record type whose records already break it: two
    /// records of one zone hold the same values in its fields.
    case constraintBroken(recordType: String, constraint: [String])
    /// Two or more record types (`field` nil) or fields of the new version would take the
    /// values of one stored type or field: one by its `renamingIdentifier`, another by its own
    /// name. `to` lists them.
    case renamedTwice(recordType: String, field: String?, to: [String])

    public var description: String {
        switch self {
        case .typeChanged(let type, let field, let from, let to):
            "\(type).\(field): its type would change from \(from) to \(to), which lightweight migration cannot do"
        case .requiredWithoutDefault(let type, let field):
            "\(type).\(field): a new required attribute without a default value, and '\(type)' holds records that have no value for it"
        case .missingValues(let type, let field):
            "\(type).\(field): it becomes required without a default value, and records of '\(type)' have no value for it"
        case .nameTaken(let type, let field?, let name):
            "\(type).\(field): renamed to '\(name)', a name another field of '\(type)' keeps"
        case .nameTaken(let type, nil, let name):
            "\(type): renamed to '\(name)', the name of another record type that stays"
        case .versionChanged(let planned, let stored):
            "the migration was planned from model version \(planned?.description ?? "none"), and the store is now at \(stored?.description ?? "none"): apply the model again"
        case .constraintBroken(let type, let constraint):
            "\(type): the new uniqueness constraint (\(constraint.joined(separator: ", "))) is broken by records of '\(type)' that hold the same values"
        case .renamedTwice(let type, let field?, let names):
            "\(type).\(field): both \(names.map { "'\($0)'" }.joined(separator: " and ")) would take its values (by renaming identifier or by name): only one may"
        case .renamedTwice(let type, nil, let names):
            "\(type): both \(names.map { "'\($0)'" }.joined(separator: " and ")) would take its records (by renaming identifier or by name): only one may"
        case .unsupportedByEngine(let engine, let step):
            "the \(engine) engine cannot \(step): it performs no migration beyond added record types, fields and index changes"
        }
    }
}

import ArgumentParser
import Foundation
import RecordStore

/// `query schema [show] [TYPE]`: the record types, their fields, types and indexes;
/// `query schema apply FILE.ckdb|Model.xcdatamodeld` and `query schema export [--format ckdb|json]`:
/// the schema in CloudKit's schema language, or from a Core Data model; `query schema deploy`:
/// the development environment's schema onto production's (``Deploy``).
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the record types with their fields, types and indexes; apply, export or deploy a schema.",
        discussion: "Examples: query schema; query schema City; query schema apply schema.ckdb; query schema apply Model.xcdatamodeld; query schema export > schema.ckdb; query schema deploy --dry-run",
        subcommands: [Show.self, Apply.self, Export.self, Deploy.self],
        defaultSubcommand: Show.self)

    /// `query schema [show] [TYPE]`: one record type, or all, with fields, types and indexes.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the record types with their fields, types and indexes (the default).")

        @OptionGroup var store: StoreOptions

        @Argument(help: "One record type (default: all).")
        var recordType: String?

        func run() async throws {
            let opened = try await store.openStore()
            let types = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.schema() }
            if let recordType {
                guard let schema = types.first(where: { $0.name == recordType }) else {
                    throw CommandFailure("Record type '\(recordType)' does not exist")
                }
                print(schema)
                return
            }
            if types.isEmpty { print("(no record types)") }
            print(types.map(\.description).joined(separator: "\n\n"))
        }
    }

    /// `query schema apply FILE.ckdb`: creates the file's record types and fields and sets their
    /// indexes; its roles and grants become the store's security policy, which `query serve`
    /// enforces in the public database. `query schema apply
    /// Model.xcdatamodeld` (an `.xcdatamodel` folder, or its `contents` file): the model's
    /// entities as record types, with their relationships, and its fetch request templates; a
    /// store built from an earlier version is migrated (``SchemaMigration``), and the steps printed.
    struct Apply: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apply",
            abstract: "Apply a schema file in CloudKit's schema language (.ckdb, as cktool export-schema writes), or a Core Data model.",
            discussion: """
                Creates the record types and fields and sets their indexes (QUERYABLE, SORTABLE, SEARCHABLE).
                A field whose type would change, and ASSET and ENCRYPTED fields, are refused and nothing changes.
                Roles (CREATE ROLE) and GRANT lines become the store's security policy, which query serve
                enforces in the public database (a record type without GRANT lines has CloudKit's defaults:
                the world reads, signed-in users create, the creator writes); query roles assigns roles.
                A Core Data model (Model.xcdatamodeld, an .xcdatamodel folder or its contents file) gives record
                types (its entities' attributes, indexed as the model indexes them, and relationships, which
                key paths walk: department.name == "Sales") and fetch request templates (query find --template NAME).
                A store built from an earlier version of the model is migrated as Core Data's lightweight migration
                does (renamingIdentifier renames, fields added and removed, optional fields made required with their
                default, index changes), keeping records, change tags and history; the steps are printed. A change it
                cannot do (a type change, a new required attribute without a default on a type with records) is
                refused with the reasons, and nothing changes.
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: ArgumentHelp("The schema file ('-' reads standard input), or a Core Data model.", valueName: "file.ckdb|Model.xcdatamodeld"))
        var file: String

        func run() async throws {
            if Self.isCoreDataModel(file) {
                try await applyModel()
                return
            }
            let schema = try SchemaFile(path: file)
            let document = schema.document
            let opened = try await store.openStore()
            try await Self.drawingIndexBuilds { progress in
                do throws(SchemaLanguageError) {
                    try await opened.apply(document, progress: progress)
                } catch {
                    throw schema.failure(error)
                }
            }
            let fieldCount = document.recordTypes.reduce(0) { $0 + $1.userFields.count }
            print("Applied \(Self.counted(document.recordTypes.count, "record type")) (\(Self.counted(fieldCount, "field")))")
            if !document.roles.isEmpty || document.grantCount > 0 {
                print("Security: \(Self.counted(document.roles.count, "role")), \(Self.counted(document.grantCount, "grant")) (enforced by query serve in the public database)")
            }
        }

        /// Runs a schema change with a progress bar of the indexes it builds: a PostgreSQL store
        /// builds those a change adds to a populated table after it commits, and each one is
        /// drawn on a terminal (elsewhere, `body` gets no handler).
        static func drawingIndexBuilds(_ body: (StoreOpeningProgressHandler?) async throws -> Void) async throws {
            let bar = ProgressBar(task: "Building indexes", unit: "indexes")
            defer { bar.finish() }
            try await body(bar.isEnabled ? bar.stepHandler : nil)
        }

        /// Whether a path names a Core Data model: an `.xcdatamodeld` or `.xcdatamodel` folder, or
        /// a file named `contents` (the model inside such a folder).
        static func isCoreDataModel(_ path: String) -> Bool {
            let url = URL(fileURLWithPath: path)
            return ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension) || url.lastPathComponent == "contents"
        }

        /// Applies a Core Data model: its record types, relationships and templates.
        private func applyModel() async throws {
            let model: CoreDataModel
            do {
                model = try CoreDataModelReader.read(at: file)
            } catch {
                throw CommandFailure(error.description)
            }
            let opened = try await store.openStore()
            var migration: SchemaMigration?
            try await Self.drawingIndexBuilds { progress in
                migration = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.apply(model, progress: progress) }
            }
            if let migration, migration.fromVersion != nil, !migration.isEmpty {
                // The store was built from an earlier model version: say what migrating it did.
                print("Migrated \(migration)")
            }
            let recordTypes = model.recordTypeSchemas()
            let fieldCount = recordTypes.reduce(0) { $0 + $1.fields.count }
            print("Applied \(Self.counted(recordTypes.count, "record type")) (\(Self.counted(fieldCount, "field"))) and "
                + Self.counted(model.fetchRequestTemplates.count, "fetch request template"))
            let opaque = model.opaqueAttributePaths
            if !opaque.isEmpty {
                print("note: Transformable attributes are stored as bytes (only their ValueTransformer reads them): \(opaque.joined(separator: ", "))")
            }
            let relationships = recordTypes.reduce(0) { $0 + $1.relationships.count }
            if relationships > 0 {
                print("Relationships: \(model.relationshipPaths.joined(separator: ", "))")
            }
        }

        /// `1 field`, `3 fields`.
        static func counted(_ count: Int, _ noun: String) -> String {
            "\(count) \(noun)\(count == 1 ? "" : "s")"
        }
    }

    /// `query schema export [--format ckdb|json]`: the store's schema in CloudKit's schema language.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Print the schema in CloudKit's schema language (.ckdb) or as JSON.",
            discussion: """
                System fields are printed in their default form, with the roles and grants of the store's security policy.
                CloudKit's schema language has no syntax for fetch request templates or for relationships beyond
                their REFERENCE and LIST<REFERENCE> fields: --format json lists them (as "fetchRequestTemplates",
                and "relationships" by record type, with destination, inverse and deletion rule); the .ckdb form
                leaves them out.
                """)

        /// The output formats.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case ckdb, json
        }

        @OptionGroup var store: StoreOptions

        @Option(help: "ckdb (CloudKit's schema language) or json (the same document as JSON).")
        var format: Format = .ckdb

        func run() async throws {
            let opened = try await store.openStore()
            let (document, templates, types) = try await StoreOptions.failing { () async throws(RecordStoreError) in
                (try await opened.schemaDocument(), try await opened.fetchRequestTemplates(), try await opened.schema())
            }
            switch format {
            case .ckdb:
                print(document.ckdbText, terminator: "")
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let relationships = types.filter { !$0.relationships.isEmpty }.map { ($0.name, $0.relationships) }
                let data = try encoder.encode(ExportedSchema(
                    document: document, templates: templates, relationships: Dictionary(uniqueKeysWithValues: relationships)))
                print(String(decoding: data, as: UTF8.self))
            }
        }
    }

    /// The JSON of `schema export --format json`: the document's own keys,
    /// `fetchRequestTemplates` when the store has templates, and `relationships` (each record
    /// type's, ``ExportedRelationship``) when it has relationships.
    struct ExportedSchema: Encodable {
        let document: CloudKitSchemaDocument
        let templates: [FetchRequestTemplate]
        let relationships: [String: [RelationshipSchema]]

        private enum Key: String, CodingKey { case fetchRequestTemplates, relationships }

        func encode(to encoder: any Encoder) throws {
            try document.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            if !templates.isEmpty { try container.encode(templates, forKey: .fetchRequestTemplates) }
            if !relationships.isEmpty {
                try container.encode(relationships.mapValues { $0.map(ExportedRelationship.init) }, forKey: .relationships)
            }
        }
    }

    /// A relationship in `schema export --format json`, in Core Data's words:
    /// `{"name": "employees", "destination": "Employee", "kind": "toMany", "inverse": "department",
    /// "deletionRule": "cascade", "ordered": false}`, with `minCount` and `maxCount` when the model
    /// gives them. `kind` is `toOne`, `toMany` (the inverse of a reference on the destination) or
    /// `referenceList` (a `LIST<REFERENCE>` field, many-to-many).
    struct ExportedRelationship: Encodable {
        let name: String
        let destination: String
        let kind: String
        let inverse: String?
        let deletionRule: String
        let ordered: Bool
        let minCount: Int?
        let maxCount: Int?

        init(_ relationship: RelationshipSchema) {
            name = relationship.name
            destination = relationship.destination
            switch relationship.kind {
            case .toOne: (kind, inverse) = ("toOne", nil)
            case .toMany(let inverseName): (kind, inverse) = ("toMany", inverseName)
            case .referenceList: (kind, inverse) = ("referenceList", nil)
            }
            deletionRule = relationship.deletionRule.rawValue
            ordered = relationship.isOrdered
            minCount = relationship.minimumCount
            maxCount = relationship.maximumCount
        }
    }
}

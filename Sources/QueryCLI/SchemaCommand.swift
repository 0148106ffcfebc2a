import ArgumentParser
import Foundation
import RecordStore

/// `query schema [show] [TYPE]`: the record types, their fields, types and indexes;
/// `query schema apply FILE.ckdb` and `query schema export [--format ckdb|json]`: the schema in
/// CloudKit's schema language.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the record types with their fields, types and indexes; apply or export a .ckdb schema.",
        discussion: "Examples: query schema; query schema City; query schema apply schema.ckdb; query schema export > schema.ckdb",
        subcommands: [Show.self, Apply.self, Export.self],
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
    /// indexes; roles and grants are kept in the file only (not enforced).
    struct Apply: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apply",
            abstract: "Apply a schema file in CloudKit's schema language (.ckdb, as cktool export-schema writes).",
            discussion: """
                Creates the record types and fields and sets their indexes (QUERYABLE, SORTABLE, SEARCHABLE).
                A field whose type would change, and ASSET and ENCRYPTED fields, are refused and nothing changes.
                Roles and GRANT lines are read but not enforced.
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: ArgumentHelp("The schema file ('-' reads standard input).", valueName: "file.ckdb"))
        var file: String

        func run() async throws {
            let schema = try SchemaFile(path: file)
            let document = schema.document
            let opened = try await store.openStore()
            do {
                try await opened.apply(document)
            } catch {
                throw schema.failure(error)
            }
            let fieldCount = document.recordTypes.reduce(0) { $0 + $1.userFields.count }
            print("Applied \(Self.counted(document.recordTypes.count, "record type")) (\(Self.counted(fieldCount, "field")))")
            if !document.roles.isEmpty {
                print("note: \(Self.counted(document.roles.count, "CREATE ROLE line")) kept, not enforced")
            }
            if document.grantCount > 0 {
                print("note: \(Self.counted(document.grantCount, "GRANT line")) kept, not enforced")
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
            discussion: "System fields are printed in their default form; the store keeps no roles or grants, so none are printed.")

        /// The output formats.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case ckdb, json
        }

        @OptionGroup var store: StoreOptions

        @Option(help: "ckdb (CloudKit's schema language) or json (the same document as JSON).")
        var format: Format = .ckdb

        func run() async throws {
            let opened = try await store.openStore()
            let document = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.schemaDocument() }
            switch format {
            case .ckdb:
                print(document.ckdbText, terminator: "")
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(document)
                print(String(decoding: data, as: UTF8.self))
            }
        }
    }
}

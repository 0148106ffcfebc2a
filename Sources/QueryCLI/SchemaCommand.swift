import ArgumentParser
import RecordStore

/// `query schema`: the record types, their fields, types and indexes.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the record types with their fields, types and indexes.")

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

import ArgumentParser
import RecordStore

/// `query zones`: lists the zones; `query zones create NAME` and `query zones delete NAME`.
struct ZonesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zones",
        abstract: "List, create or delete zones.",
        discussion: "Examples: query zones; query zones create Archive; query zones delete Archive",
        subcommands: [List.self, Create.self, Delete.self],
        defaultSubcommand: List.self)

    /// `query zones [list]`: a zone name a line, the default zone first.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the zones, the default zone first.")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let opened = try await store.openStore()
            let zones = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.zones() }
            for zone in zones { print(zone.zoneName) }
        }
    }

    /// `query zones create NAME`: creating a zone that exists does nothing.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a zone (nothing happens if it exists).")

        @OptionGroup var store: StoreOptions

        @Argument(help: "The zone's name.")
        var name: String

        func run() async throws {
            let opened = try await store.openStore()
            try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.createZone(ZoneID(zoneName: name)) }
            print("Created zone \(name)")
        }
    }

    /// `query zones delete NAME`: deletes the zone and every record in it.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a zone and every record in it.")

        @OptionGroup var store: StoreOptions

        @Argument(help: "The zone's name.")
        var name: String

        func run() async throws {
            let opened = try await store.openStore()
            try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.deleteZone(ZoneID(zoneName: name)) }
            print("Deleted zone \(name)")
        }
    }
}

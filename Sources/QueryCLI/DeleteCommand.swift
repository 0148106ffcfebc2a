import ArgumentParser
import RecordStore

/// `query delete`: deletes records of a type by name, all in one transaction.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete records of a type by record name.",
        discussion: """
            Every name must name a record of the type in the zone; otherwise nothing is deleted and \
            the missing names are listed.
            Example: query delete City 2988507 2995469
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The record type.")
    var recordType: String

    @Argument(help: "The record names.")
    var names: [String]

    @Option(name: .customLong("zone"), help: "The zone of the records (default: the default zone).")
    var zone: String?

    func validate() throws {
        if names.isEmpty { throw ValidationError("name at least one record to delete") }
    }

    func run() async throws {
        let opened = try await store.openStore()
        let zoneID = zone.map(ZoneID.init(zoneName:)) ?? .default
        let ids = names.map { RecordID(recordName: $0, zoneID: zoneID) }
        let recordType = self.recordType
        let missing = try await StoreOptions.failing { () async throws(RecordStoreError) -> [String] in
            var missing: [String] = []
            for id in ids where try await opened.record(for: id)?.recordType != recordType { missing.append(id.recordName) }
            return missing
        }
        guard missing.isEmpty else {
            throw CommandFailure("no \(recordType) record named \(missing.map { "'\($0)'" }.joined(separator: ", ")) in zone '\(zoneID.zoneName)'; nothing was deleted")
        }
        try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.delete(ids) }
        print("Deleted \(ids.count) \(recordType) record\(ids.count == 1 ? "" : "s")")
    }
}

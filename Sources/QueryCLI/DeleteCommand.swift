import ArgumentParser
import RecordStore

/// `query delete`: deletes records of a type by name, or every record a predicate matches (a
/// batch delete), all in one transaction.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete records of a type by record name, or every record that matches --where.",
        discussion: """
            By name: every name must name a record of the type in the zone; otherwise nothing is \
            deleted and the missing names are listed.
            With --where: every record of the type that matches the predicate is deleted in one \
            transaction (a batch delete), keeping the change history and the deletion rules; a \
            refused deletion deletes nothing.
            Examples: query delete City 2988507 2995469
                      query delete City --where 'population < 1000'
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The record type.")
    var recordType: String

    @Argument(help: "The record names (or --where).")
    var names: [String] = []

    @OptionGroup var batch: BatchWhereArguments

    func validate() throws {
        if names.isEmpty && batch.predicate == nil { throw ValidationError("name at least one record to delete, or give --where") }
        if !names.isEmpty && batch.predicate != nil { throw ValidationError("give record names or --where, not both") }
    }

    func run() async throws {
        let opened = try await store.openStore()
        if batch.predicate != nil {
            let request = try batch.request(recordType: recordType)
            let result = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.deleteRecords(matching: request) }
            print(BatchWhereArguments.summary(result, "Deleted", recordType: recordType))
            return
        }
        let zoneID = batch.zoneID
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

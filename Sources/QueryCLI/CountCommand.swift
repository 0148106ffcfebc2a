import ArgumentParser
import RecordStore

/// `query count`: how many records of a type match a predicate.
struct CountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Count the records of a type that match a predicate.")

    @OptionGroup var store: StoreOptions

    @Argument(help: "The record type.")
    var recordType: String

    @OptionGroup var predicate: PredicateArguments

    func run() async throws {
        let opened = try await store.openStore()
        let parsed = try predicate.parsedPredicate()
        let count = try await StoreOptions.failing { () async throws(RecordStoreError) in
            try await opened.count(ofType: recordType, matching: parsed)
        }
        print(count)
    }
}

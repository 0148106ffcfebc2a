import ArgumentParser
import PredicateLanguage
import RecordStore

/// The arguments that name a query, shared by `find` and `watch`: the record type, the predicate
/// with its `--arg` values, and the `--sort` keys.
struct QueryArguments: ParsableArguments {
    @Argument(help: "The record type.")
    var recordType: String

    @OptionGroup var predicate: PredicateArguments

    @Option(name: .customLong("sort"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Sort key; -KEY for descending (repeat for more keys).", valueName: "KEY|-KEY"))
    var sorts: [String] = []

    /// The `--sort` keys as sorts; a bad one is a command failure.
    func sortList() throws -> [Sort] {
        try sorts.map { text in try StoreOptions.failing { () throws(RecordStoreError) in try Sort(parsing: text) } }
    }
}

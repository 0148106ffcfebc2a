import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// The arguments that name a query, shared by `find` and `watch`: the record type, the predicate
/// with its `--arg` values, and the `--sort` keys.
struct QueryArguments: ParsableArguments {
    @Argument(help: "The record type.")
    var recordType: String

    @OptionGroup var predicate: PredicateArguments

    @Option(
        name: .customLong("sort"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Sort key; -KEY for descending, :COMPARISON for how strings compare (\(SortArgument.comparisonNames)); repeat for more keys.",
            valueName: "[-]KEY[:COMPARISON]"))
    var sorts: [String] = []

    /// A `--sort` with an unknown comparison is wrong usage.
    func validate() throws {
        for text in sorts { _ = try SortArgument.comparison(of: text) }
    }

    /// The query these arguments name; a bad predicate, `--arg` or `--sort` is a command failure.
    func recordQuery() throws -> RecordQuery {
        try Self.recordQuery(recordType, predicate: predicate.parsedPredicate(), sorts: sorts)
    }

    /// A query of a record type from a parsed predicate and `--sort` texts (`KEY`, `-KEY`, `KEY:comparison`).
    static func recordQuery(_ recordType: String, predicate: FormatPredicate, sorts: [String]) throws -> RecordQuery {
        let parsed = try sorts.map(SortArgument.sort(parsing:))
        return try StoreOptions.failing { () throws(RecordStoreError) in
            try RecordQuery(recordType: recordType, predicate: predicate, sorts: parsed)
        }
    }

    /// The field names of a `--keys a,b` option, trimmed; nil when the option is absent.
    static func keyList(_ keys: String?) -> [String]? {
        keys.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}

import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// The arguments that name a query, shared by `find` and `watch`: the record type, the predicate
/// with its `--arg` values, and the `--sort` keys; or a fetch request template of the schema
/// (`--template NAME`) with its `--var NAME=JSON` values instead of a record type and predicate.
struct QueryArguments: ParsableArguments {
    @Argument(help: "The record type (not with --template).")
    var recordType: String?

    @Argument(help: "The predicate format string, e.g. 'name BEGINSWITH[c] %@ AND population > %d' (not with --template).")
    var predicate: String?

    @Option(name: .customLong("arg"), help: ArgumentHelp("A format argument as JSON, one per %@/%d/%K... in order (repeat the flag).", valueName: "json"))
    var arguments: [String] = []

    @Option(name: .customLong("template"), help: ArgumentHelp(
        "A fetch request template of the schema (query schema apply Model.xcdatamodeld) instead of a record type and predicate.",
        valueName: "name"))
    var template: String?

    @Option(name: .customLong("var"), help: ArgumentHelp("A template variable as NAME=JSON, for --template (repeat the flag).", valueName: "name=json"))
    var variables: [String] = []

    @Option(
        name: .customLong("sort"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Sort key; -KEY for descending, :COMPARISON for how strings compare (\(SortArgument.comparisonNames)); repeat for more keys.",
            valueName: "[-]KEY[:COMPARISON]"))
    var sorts: [String] = []

    /// A `--sort` with an unknown comparison, and a record type or predicate given with
    /// `--template` (or missing without it), are wrong usage.
    func validate() throws {
        for text in sorts { _ = try SortArgument.comparison(of: text) }
        if template != nil {
            guard recordType == nil, predicate == nil, arguments.isEmpty else {
                throw ValidationError("--template names the record type and predicate: give no record type, predicate or --arg with it")
            }
        } else {
            guard recordType != nil else { throw ValidationError("Missing expected argument '<record-type>' (or --template NAME)") }
            guard predicate != nil else { throw ValidationError("Missing expected argument '<predicate>'") }
            guard variables.isEmpty else { throw ValidationError("--var binds a template's variables: use it with --template") }
        }
    }

    /// The query these arguments name; a bad predicate, `--arg` or `--sort`, an unknown template
    /// and a template variable without a `--var` are command failures. A template's fetch limit
    /// is not applied (`--limit` sets the batch size).
    func recordQuery(in store: Store) async throws -> RecordQuery {
        guard let template else {
            let parsed = try PredicateArguments.parsedPredicate(predicate ?? "TRUEPREDICATE", arguments: arguments)
            return try Self.recordQuery(recordType ?? "", predicate: parsed, sorts: sorts)
        }
        let bindings = try EvalCommand.parseVariables(variables)
        let request = try await StoreOptions.failing { () async throws(RecordStoreError) in
            try await store.fetchRequest(template: template, substitutionVariables: bindings)
        }
        return try Self.recordQuery(request.entityName, predicate: request.predicate ?? .truePredicate, sorts: sorts)
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

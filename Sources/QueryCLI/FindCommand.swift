import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// `query find`: the records of a type that match a predicate.
struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find records of a type that match a predicate.",
        discussion: "Example: query find City 'countrycode == \"FR\" AND population > 500000' --sort -population")

    @OptionGroup var store: StoreOptions

    @Argument(help: "The record type.")
    var recordType: String

    @OptionGroup var predicate: PredicateArguments

    @Option(name: .customLong("sort"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Sort key; -KEY for descending (repeat for more keys).", valueName: "KEY|-KEY"))
    var sorts: [String] = []

    @Option(name: .customLong("limit"), help: "The most records to print.")
    var limit: Int?

    @Option(name: .customLong("keys"), help: ArgumentHelp("The fields to print, comma-separated.", valueName: "a,b"))
    var keys: String?

    @Option(name: .customLong("zone"), help: "The zone to search (default: the default zone).")
    var zone: String?

    @Option(name: .customLong("cursor"), help: "Continue from a cursor of an earlier find.")
    var cursor: String?

    @Option(name: .customLong("output"), help: "table, json or jsonl.")
    var output: RecordOutputFormat = .table

    @Flag(name: .customLong("explain"), help: "Print the query plan instead of the records.")
    var explain = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func run() throws {
        if cursor != nil { throw CommandFailure("--cursor is not supported yet: cursors arrive with query operations") }
        let opened = try store.openStore()
        let parsed = try predicate.parsedPredicate()
        let sortList = try sorts.map { text in try StoreOptions.failing { () throws(RecordStoreError) in try Sort(parsing: text) } }
        let zoneID = zone.map(ZoneID.init(zoneName:)) ?? .default
        if explain {
            let plan = try StoreOptions.failing { () throws(RecordStoreError) in
                try opened.explain(ofType: recordType, matching: parsed, sorts: sortList, zone: zoneID, limit: limit)
            }
            print(plan)
            return
        }
        let records = try StoreOptions.failing { () throws(RecordStoreError) in
            try opened.records(ofType: recordType, matching: parsed, sorts: sortList, zone: zoneID, limit: limit)
        }
        let keyList = keys.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let fieldOrder = try StoreOptions.failing { () throws(RecordStoreError) in
            try opened.schema(for: recordType)?.fields.filter { !$0.type.isList }.map(\.name) ?? []
        }
        RecordPrinting.print(records, format: output, keys: keyList, fieldOrder: fieldOrder)
    }
}

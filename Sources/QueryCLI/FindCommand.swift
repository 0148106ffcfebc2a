import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// `query find`: the records of a type that match a predicate.
struct FindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find records of a type that match a predicate.",
        discussion: "Example: query find City 'countrycode == \"FR\" AND population > 500000' --sort -population")

    @OptionGroup var store: StoreOptions

    @OptionGroup var query: QueryArguments

    @Option(name: .customLong("limit"), help: "The batch size: print at most N records and, when more remain, a cursor for --cursor.")
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

    func run() async throws {
        let opened = try await store.openStore()
        let parsed = try query.predicate.parsedPredicate()
        let sortList = try query.sortList()
        let zoneID = zone.map(ZoneID.init(zoneName:)) ?? .default
        if explain {
            let plan = try await StoreOptions.failing { () async throws(RecordStoreError) in
                try await opened.explain(ofType: query.recordType, matching: parsed, sorts: sortList, zone: zoneID, limit: limit)
            }
            print(plan)
            return
        }
        let (records, nextCursor) = try await StoreOptions.failing { () async throws(RecordStoreError) -> ([Record], QueryCursor?) in
            try await fetch(opened, predicate: parsed, sorts: sortList, zone: zoneID)
        }
        let keyList = keys.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        // Only a table without --keys needs the schema's field order for its columns.
        let fieldOrder = output != .table || keyList != nil ? [] : try await StoreOptions.failing { () async throws(RecordStoreError) in
            try await opened.schema(for: query.recordType)?.fields.filter { !$0.type.isList }.map(\.name) ?? []
        }
        RecordPrinting.print(records, format: output, keys: keyList, fieldOrder: fieldOrder, cursor: nextCursor?.stringValue)
    }

    /// One batch of `--limit` records (all of them without `--limit`), from the start or after `--cursor`.
    private func fetch(_ opened: Store, predicate parsed: FormatPredicate, sorts sortList: [Sort], zone zoneID: ZoneID) async throws(RecordStoreError) -> ([Record], QueryCursor?) {
        let recordQuery = try RecordQuery(recordType: query.recordType, predicate: parsed, sorts: sortList)
        var batch: QueryBatch
        if let cursor {
            let parsedCursor = try QueryCursor(string: cursor)
            try opened.checkCursor(parsedCursor, continues: recordQuery, inZone: zoneID)
            if limit == 0 { return ([], parsedCursor) }
            batch = try await opened.records(continuingMatchFrom: parsedCursor, resultsLimit: limit ?? Self.readSize)
        } else {
            if limit == 0 { return ([], nil) }
            guard limit != nil else {
                return (try await opened.records(ofType: query.recordType, matching: parsed, sorts: sortList, zone: zoneID), nil)
            }
            batch = try await opened.records(matching: recordQuery, inZone: zoneID, resultsLimit: limit ?? Self.readSize)
        }
        guard limit == nil else { return (batch.matchResults, batch.cursor) }
        var records = batch.matchResults
        while let next = batch.cursor {
            batch = try await opened.records(continuingMatchFrom: next, resultsLimit: Self.readSize)
            records += batch.matchResults
        }
        return (records, nil)
    }

    /// Records read per round trip when `--cursor` is given without `--limit` (everything remaining is printed).
    private static let readSize = 1000
}

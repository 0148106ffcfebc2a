import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// `query export`: every record of a type (that matches a predicate) as JSON lines or CSV,
/// written as it is read, in a form `query import` reads back.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the records of a type as JSON lines or CSV (query import reads them back).",
        discussion: """
            Each JSON line is {"recordName", "recordType", "zone", "fields"} with typed values \
            ({"$date": …}, {"$location": [lat, lon]}, {"$ref": …}, {"$bytes": …}); import takes the \
            record's name, zone and fields from it. CSV has a recordName column, then the fields in the \
            schema's order; dates, locations, references, bytes and lists are written as that typed \
            JSON, and import reads cells by the stored field types. Records stream out in batches, so \
            memory stays flat however many there are.
            Example: query export City 'countrycode == "FR"' --output csv > french-cities.csv
            """)

    /// The formats export writes.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, csv
    }

    @OptionGroup var store: StoreOptions

    @Argument(help: "The record type.")
    var recordType: String

    @Argument(help: "The predicate the exported records match (default: every record).")
    var predicate = "TRUEPREDICATE"

    @Option(name: .customLong("arg"), help: ArgumentHelp("A format argument as JSON, one per %@/%d/%K... in order (repeat the flag).", valueName: "json"))
    var arguments: [String] = []

    @Option(name: .customLong("sort"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Sort key; -KEY for descending (default: by record name).", valueName: "KEY|-KEY"))
    var sorts: [String] = []

    @Option(name: .customLong("zone"), help: "The zone to export (default: the default zone).")
    var zone: String?

    @Option(name: .customLong("output"), help: "jsonl or csv.")
    var output: Format = .jsonl

    @Option(name: .customLong("progress"), help: ArgumentHelp("auto: a progress bar on a terminal; none: nothing.", valueName: "auto|none"))
    var progress: ExportProgress = .auto

    /// Whether export draws a progress bar.
    enum ExportProgress: String, ExpressibleByArgument, CaseIterable {
        case auto, none
    }

    func run() async throws {
        let opened = try await store.openStore()
        let parsed = try PredicateArguments.parsedPredicate(predicate, arguments: arguments)
        let recordQuery = try QueryArguments.recordQuery(recordType, predicate: parsed, sorts: sorts)
        let zoneID = zone.map(ZoneID.init(zoneName:)) ?? .default
        let bar = ProgressBar(task: "Exporting \(recordType)", unit: "records", enabled: progress == .auto && CommandOutput.standardErrorIsTerminal)
        let drawsProgress = bar.isEnabled
        let (columns, total) = try await StoreOptions.failing { () async throws(RecordStoreError) -> ([String], Int) in
            let fields = try await opened.schema(for: recordType)?.fields.map(\.name) ?? []
            // The count sizes the progress bar: read only when a bar is drawn.
            return (fields, drawsProgress ? try await opened.count(ofType: recordType, matching: parsed, zone: zoneID) : 0)
        }
        let destination = BufferedOutput.standardOutput()
        var writer = (output == .csv ? RecordOutputFormat.csv : .jsonl).writer(to: destination, keys: nil, fieldOrder: columns, streams: true)
        defer { bar.finish() }
        var exported = 0
        _ = try await StoreOptions.failing { () async throws(RecordStoreError) in
            try await BatchedRead(store: opened, query: recordQuery, zone: zoneID).run(from: nil, limit: nil) { batch in
                writer.write(batch)
                exported += batch.count
                bar.show(completed: exported, fraction: total > 0 ? Double(exported) / Double(total) : nil)
                return !destination.isClosed
            }
        }
        writer.finish(cursor: nil)
        bar.show(completed: exported, fraction: total > 0 ? 1 : nil, force: true)
    }
}

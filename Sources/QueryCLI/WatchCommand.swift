import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// `query watch`: a live query on the command line. Prints the results, then a line for each
/// change as commits make it (from this machine's other processes on a SQLite file within
/// 50 ms, from any client of a PostgreSQL store as it commits), until interrupted.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a query's results, then each change to them as it is committed, until interrupted.",
        discussion: """
            After the results, one line per change: `insert INDEX NAME`, `delete INDEX NAME`, \
            `move FROM TO NAME`, `update INDEX NAME` (positions in the results; a delete's and a \
            move's FROM before the change, the others after), then `reset` and the results again \
            when the watch fell too far behind. With --output jsonl every line is a JSON object.

            Example: query watch City 'population > 1000000' --sort -population --limit 10
            """)

    @OptionGroup var store: StoreOptions

    @OptionGroup var query: QueryArguments

    @Option(name: .customLong("limit"), help: "Watch only the first N results.")
    var limit: Int?

    @Option(name: .customLong("zone"), help: "The zone to watch (default: the default zone).")
    var zone: String?

    @Option(name: .customLong("keys"), help: ArgumentHelp("The fields to print, comma-separated.", valueName: "a,b"))
    var keys: String?

    @Option(name: .customLong("output"), help: "text or jsonl.")
    var output: WatchOutputFormat = .text

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func run() async throws {
        let opened = try await store.openStore()
        let recordQuery = try await query.recordQuery(in: opened)
        let keyList = QueryArguments.keyList(keys)
        let printer = WatchPrinter(format: output, keys: keyList)
        let observation = opened.observe(recordQuery, inZone: zone.map(ZoneID.init(zoneName:)) ?? .default, limit: limit)
        try await StoreOptions.failing { () async throws(RecordStoreError) in
            var shown: [Record] = []
            for try await change in observation {
                let results = change.records.records
                printer.print(change, old: shown, new: results)
                shown = results
            }
        }
    }
}

/// How `watch` prints changes.
enum WatchOutputFormat: String, CaseIterable, ExpressibleByArgument {
    case text, jsonl
}

/// Prints a watch's results and changes, a line each.
struct WatchPrinter {
    let format: WatchOutputFormat
    let keys: [String]?

    func print(_ change: ResultsChange, old: [Record], new: [Record]) {
        switch change.kind {
        case .initial:
            for (index, record) in new.enumerated() { line("result", index, record) }
            summary(new.count)
        case .reset:
            event(["change": "reset"], text: "reset")
            for (index, record) in new.enumerated() { line("result", index, record) }
            summary(new.count)
        case .changed:
            let difference = change.difference
            for index in difference.deletions { line("delete", index, old[index]) }
            for move in difference.moves {
                event(
                    ["change": "move", "from": .int(Int64(move.from)), "to": .int(Int64(move.to)), "record": RecordJSON.object(new[move.to], keys: keys)],
                    text: "move \(move.from) \(move.to) \(describe(new[move.to]))")
            }
            for index in difference.insertions { line("insert", index, new[index]) }
            for update in difference.updates { line("update", update.to, new[update.to]) }
        }
    }

    private func line(_ kind: String, _ index: Int, _ record: Record) {
        event(
            ["change": .string(kind), "index": .int(Int64(index)), "record": RecordJSON.object(record, keys: keys)],
            text: "\(kind) \(index) \(describe(record))")
    }

    private func summary(_ count: Int) {
        event(["change": "watching", "count": .int(Int64(count))], text: "(\(count) record\(count == 1 ? "" : "s"); watching for changes)")
    }

    /// Writes one line, unbuffered, so that it reaches a pipe as the change happens.
    private func event(_ object: [String: Value], text: String) {
        let line = format == .jsonl ? Value.object(object).jsonText(sortedKeys: true) : text
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A record on one line: its name, then its fields (the chosen keys, or all, by name).
    private func describe(_ record: Record) -> String {
        let names = keys ?? record.fields.keys.sorted()
        let fields = names.compactMap { name in record.fields[name].map { "\(name)=\(TableRecordWriter.cell($0))" } }
        return ([record.recordID.recordName] + fields).joined(separator: " ")
    }
}

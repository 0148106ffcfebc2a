import ArgumentParser
import Foundation
import RecordStore

/// `query import`: loads a JSON, JSON lines or CSV file (optionally gzip) into a record type.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import records from .json, .jsonl or .csv files, optionally .gz.")

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("type"), help: "The record type of the imported records.")
    var recordType: String

    @Argument(help: "The file to import.")
    var file: String

    @Option(name: .customLong("id"), help: "The field whose value becomes the record name (otherwise names are generated).")
    var idField: String?

    @Option(name: .customLong("location"), help: ArgumentHelp("Build a location field from two numeric fields.", valueName: "NAME=LATFIELD,LONFIELD"))
    var locations: [String] = []

    @Option(name: .customLong("batch"), help: "Records per transaction.")
    var batchSize = 5_000

    @Option(name: .customLong("progress"), help: ArgumentHelp(
        "auto: a progress bar on a terminal; jsonl: after each committed batch, a JSON line on standard error with "
            + "\"committed\" (records committed so far) and \"lastRecordName\"; none: nothing.",
        valueName: "auto|jsonl|none"))
    var progress: ImportProgressFormat = .auto

    func validate() throws {
        for location in locations where RecordImporter.LocationMapping(parsing: location) == nil {
            throw ValidationError("--location expects NAME=LATFIELD,LONFIELD, got '\(location)'")
        }
        if batchSize < 1 { throw ValidationError("--batch must be at least 1") }
    }

    func run() async throws {
        let opened = try await store.openStore()
        var importer = RecordImporter(recordType: recordType)
        importer.idField = idField
        importer.locations = locations.compactMap(RecordImporter.LocationMapping.init(parsing:))
        importer.batchSize = batchSize
        let summary = try await ImportCommand.run(importer, file: file, into: opened, progress: progress)
        print("Imported \(summary.recordCount) \(recordType) records in \(String(format: "%.2f", summary.elapsed)) s")
    }

    /// Runs an import, reporting progress on standard error: with `.auto` a progress bar on a
    /// terminal, with `.jsonl` a line per committed batch.
    static func run(
        _ importer: RecordImporter, file: String, into store: Store, progress format: ImportProgressFormat = .auto
    ) async throws -> RecordImporter.Summary {
        let bar = ProgressBar(enabled: format == .auto && isatty(STDERR_FILENO) == 1)
        defer { bar.finish() }
        let report: @Sendable (RecordImporter.Progress) -> Void = { progress in
            switch format {
            case .auto: bar.show(progress)
            case .jsonl: ImportProgressFormat.reportCommitted(progress)
            case .none: break
            }
        }
        // An embedded store imports synchronously, with its indexes built after the load; a
        // server store through the async API.
        guard !store.answersSynchronously else {
            return try StoreOptions.failing { () throws(RecordStoreError) in try importer.importFile(at: file, into: store, progress: report) }
        }
        return try await StoreOptions.failing { () async throws(RecordStoreError) in try await importer.importFile(at: file, into: store, progress: report) }
    }
}

/// A one-line progress bar with rate and ETA, redrawn on standard error.
struct ProgressBar: Sendable {
    let enabled: Bool

    func show(_ progress: RecordImporter.Progress) {
        guard enabled else { return }
        let fraction = progress.totalBytes > 0 ? min(1, Double(progress.bytesRead) / Double(progress.totalBytes)) : 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let rate = progress.elapsed > 0 ? Double(progress.recordCount) / progress.elapsed : 0
        let remaining = fraction > 0 ? progress.elapsed * (1 - fraction) / fraction : 0
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            + String(format: "%3.0f%%  %d records  %.0f/s  ETA %.0fs ", fraction * 100, progress.recordCount, rate, remaining)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

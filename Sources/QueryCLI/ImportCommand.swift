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

    @Option(name: .customLong("zone"), help: ArgumentHelp(
        "The zone of the imported records (default: the default zone; created when missing). A JSON record in export's shape names its own zone.",
        valueName: "NAME"))
    var zone: String?

    @Option(name: .customLong("batch"), help: "Records per transaction.")
    var batchSize = 5_000

    @Option(name: .customLong("progress"), help: ArgumentHelp(
        "auto: a progress bar on a terminal; jsonl: after each committed batch, a JSON line on standard error with "
            + "\"committed\" (records committed so far) and \"lastRecordName\"; none: nothing.",
        valueName: "auto|jsonl|none"))
    var progress: ImportProgressFormat = .auto

    @Option(name: .customLong("indexes"), help: ArgumentHelp(
        // What `automatic` gives each field type is described once, in IndexPolicy and the DocC article.
        "The index types of the fields the import adds: automatic or all (every index a field's type can have); "
            + "see \"Indexes and searches\" in RecordStoreCore's documentation. Declare other index types with `query schema apply`.",
        valueName: "automatic|all"))
    var indexes: IndexPolicy?

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
        if let zone { importer.zone = ZoneID(zoneName: zone) }
        importer.justInTimeIndexes = indexes
        // CSV cells are read as the stored fields' types when the record type exists.
        if RecordImporter.Format(path: file) == .csv {
            let schema = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.schema(for: recordType) }
            importer.fieldTypes = Dictionary(schema?.fields.map { ($0.name, $0.type) } ?? [], uniquingKeysWith: { first, _ in first })
        }
        let summary = try await ImportCommand.run(importer, file: file, into: opened, progress: progress)
        print("Imported \(summary.recordCount) \(recordType) records in \(String(format: "%.2f", summary.elapsed)) s")
    }

    /// Runs an import, reporting progress on standard error: with `.auto` a progress bar on a
    /// terminal, with `.jsonl` a line per committed batch.
    static func run(
        _ importer: RecordImporter, file: String, into store: Store, progress format: ImportProgressFormat = .auto
    ) async throws -> RecordImporter.Summary {
        let task = "Importing \(importer.recordType)"
        let bar = ProgressBar(task: task, unit: "records", enabled: format == .auto && CommandOutput.standardErrorIsTerminal)
        defer { bar.finish() }
        var importer = importer
        // The indexes an import into a new type builds at its end draw on the same line.
        importer.indexProgress = bar.stepHandler
        let report: @Sendable (RecordImporter.Progress) -> Void = { progress in
            switch format {
            case .auto:
                let fraction = progress.totalBytes > 0 ? Double(progress.bytesRead) / Double(progress.totalBytes) : nil
                bar.show(completed: progress.recordCount, fraction: fraction, task: task, unit: "records")
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

extension IndexPolicy: ExpressibleByArgument {}

import ArgumentParser
import RecordStore

/// `query backup --output FOLDER`: a consistent backup of the store while it serves
/// (`Store.backup(to:)`).
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up the store (records, schema, history, assets) into a new folder, while writers go on.",
        discussion: """
            The backup is one consistent snapshot: SQLite's online backup API, or one repeatable-read \
            transaction on PostgreSQL. It is a folder: manifest.json (written last), then store.sqlite and \
            assets/ (SQLite) or tables/ (PostgreSQL). query restore reads it back into a store of the same engine.
            Example: query backup --db cities.sqlite --output /backups/cities-2026-11-25
            """)

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("output"), help: ArgumentHelp("The backup folder to create (it must not exist).", valueName: "folder"))
    var output: String

    func run() async throws {
        let opened = try await store.openStore()
        let manifest = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.backup(to: output) }
        print("Backed up the \(manifest.engine) store at history position \(manifest.historyPosition) to \(output)")
    }
}

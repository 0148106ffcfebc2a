import ArgumentParser
import RecordStore

/// `query restore FOLDER --db LOCATION`: a backup made by `query backup` restored into a store
/// of the same engine, under a new store identity (`Store.restore(from:to:replacing:)`).
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup folder into a store of the same engine, under a new store identity.",
        discussion: """
            The restored store answers as the backed-up one did at the backup's moment. It gets a new \
            identity: change tokens the backed-up store made after the backup are refused \
            (CHANGE_TOKEN_EXPIRED), so clients read again instead of missing changes. A location that \
            already holds a store is refused unless --replace is given (stop its servers first).
            Example: query restore /backups/cities-2026-11-25 --db restored.sqlite
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The backup folder (made by query backup).", valueName: "folder"))
    var backup: String

    @Flag(name: .customLong("replace"), help: "Replace the store the location holds.")
    var replace = false

    func run() async throws {
        _ = try store.location()
        let (location, replace, mode) = (store.resolvedPath, replace, store.mode)
        let restored = try await StoreOptions.failing { () async throws(RecordStoreError) in
            try await Store.restore(from: backup, to: location, replacing: replace, mode: mode)
        }
        print("Restored the \(restored.engineName) store from \(backup) into \(location)")
    }
}

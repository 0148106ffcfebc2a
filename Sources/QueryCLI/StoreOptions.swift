import ArgumentParser
import Foundation
import RecordStore

/// The `--db` flag: the store's location (a SQLite file path, `sqlite:PATH`, `file:///PATH` or
/// `memory:`), `./query.sqlite` unless `QUERY_DB` says otherwise.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The database: \(CommandEngines.locations) (default: $QUERY_DB or ./query.sqlite).", valueName: "location"))
    var databasePath: String?

    @Option(name: .customLong("mode"), help: ArgumentHelp(
        "development: the schema grows with the records, and queries on fields without an index read every row; "
            + "production: new record types and fields are refused, and so are queries on fields without the index type they need.",
        valueName: "development|production"))
    var mode: SchemaMode = .development

    /// The path in effect.
    var resolvedPath: String {
        databasePath ?? ProcessInfo.processInfo.environment["QUERY_DB"] ?? "./query.sqlite"
    }

    /// The location in effect, parsed; a malformed one is a command failure.
    func location() throws -> StoreLocation {
        CommandEngines.register()
        if let failure = TraitCommands.postgresFailure(location: resolvedPath) { throw failure }
        return try StoreOptions.failing { () throws(RecordStoreError) in try StoreLocation(resolvedPath) }
    }

    /// Opens the store the location names, through the engines RecordStore registers and the
    /// tool's own (``CommandEngines``), with a progress bar on a terminal while an older SQLite
    /// file is migrated or an interrupted import's indexes are built. A store error becomes a
    /// command failure.
    func openStore() async throws -> Store {
        CommandEngines.register()
        if let failure = TraitCommands.postgresFailure(location: resolvedPath) { throw failure }
        let bar = ProgressBar(task: "Opening", unit: "rows")
        defer { bar.finish() }
        let progress: StoreOpeningProgressHandler? = CommandOutput.standardErrorIsTerminal ? bar.stepHandler : nil
        let (url, mode) = (resolvedPath, mode)
        return try await StoreOptions.failing { () async throws(RecordStoreError) in try await Store.open(url: url, mode: mode, progress: progress) }
    }

    /// Runs `body`, turning a store error into a command failure (exit status 1).
    /// Runs async store work; a store error becomes the command's failure message.
    static func failing<T>(_ body: () async throws(RecordStoreError) -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw CommandFailure(error.description)
        }
    }

    static func failing<T>(_ body: () throws(RecordStoreError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

extension SchemaMode: ExpressibleByArgument {}

import ArgumentParser
import Foundation
import RecordStore

/// The `--db` flag: the SQLite file, `./query.sqlite` unless `QUERY_DB` says otherwise.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp("The database file (default: $QUERY_DB or ./query.sqlite).", valueName: "path"))
    var databasePath: String?

    /// The path in effect.
    var resolvedPath: String {
        databasePath ?? ProcessInfo.processInfo.environment["QUERY_DB"] ?? "./query.sqlite"
    }

    /// Opens the store; a store error becomes a command failure.
    func openStore() throws -> Store {
        try StoreOptions.failing { () throws(RecordStoreError) in try Store.open(path: resolvedPath) }
    }

    /// Runs `body`, turning a store error into a command failure (exit status 1).
    static func failing<T>(_ body: () throws(RecordStoreError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

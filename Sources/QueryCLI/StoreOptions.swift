import ArgumentParser
import Foundation
import RecordStore
import RecordStorePostgres

/// The `--db` flag: the store's location (a SQLite file path, `sqlite:PATH`, `file:///PATH` or
/// `memory:`), `./query.sqlite` unless `QUERY_DB` says otherwise.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The database: a file path, sqlite:PATH, file:///PATH, memory: or postgres://user:password@host:port/database (default: $QUERY_DB or ./query.sqlite).", valueName: "location"))
    var databasePath: String?

    /// The path in effect.
    var resolvedPath: String {
        databasePath ?? ProcessInfo.processInfo.environment["QUERY_DB"] ?? "./query.sqlite"
    }

    /// The location in effect, parsed; a malformed one is a command failure.
    func location() throws -> StoreLocation {
        try StoreOptions.failing { () throws(RecordStoreError) in try StoreLocation(resolvedPath) }
    }

    /// Opens the store; a store error becomes a command failure. Work the store does while it
    /// opens (migrating an older file) is drawn as a progress line on a terminal.
    /// Opens the store: SQLite and memory synchronously (with a progress line while an older
    /// file is migrated), PostgreSQL through its async API.
    func openStore() async throws -> Store {
        if case .postgres = try location() {
            let url = resolvedPath
            return try await StoreOptions.failing { () async throws(RecordStoreError) in try await Store.open(url: url) }
        }
        return try openEmbeddedStore()
    }

    private func openEmbeddedStore() throws -> Store {
        let progress: StoreOpeningProgressHandler? = isatty(STDERR_FILENO) == 1 ? StoreOptions.drawProgress : nil
        let store = try StoreOptions.failing { () throws(RecordStoreError) in
            try Store.open(StoreLocation(resolvedPath), progress: progress)
        }
        if progress != nil, StoreOptions.progressDrawn.value { FileHandle.standardError.write(Data("\n".utf8)) }
        return store
    }

    /// Whether a progress line was drawn (and needs a line break after it).
    private static let progressDrawn = DrawnFlag()

    /// Redraws one line on standard error: `Computing c, cd of City.name  42%`.
    private static let drawProgress: StoreOpeningProgressHandler = { progress in
        let percent = progress.total > 0 ? 100 * progress.completed / progress.total : 100
        FileHandle.standardError.write(Data("\r\(progress.task)  \(percent)%\u{1B}[K".utf8))
        progressDrawn.value = true
    }

    /// A flag set from the progress handler, read after opening.
    private final class DrawnFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = false
        var value: Bool {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
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

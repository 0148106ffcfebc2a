import Foundation

extension Store {
    /// A store that keeps everything in memory and runs queries with the evaluator.
    ///
    /// ```swift
    /// let store = Store.inMemory()
    /// ```
    public static func inMemory(mode: SchemaMode = .development) -> Store {
        Store(engine: MemoryEngine(), mode: mode)
    }

    /// Opens (creating when needed) a SQLite store at a file path. A file written by an older
    /// version is brought to the current layout first, in one transaction; `progress` hears how
    /// that goes (the `query` tool draws it on a terminal).
    ///
    /// ```swift
    /// let store = try Store.open(path: "./query.sqlite")
    /// ```
    public static func open(
        path: String, mode: SchemaMode = .development, progress: StoreOpeningProgressHandler? = nil
    ) throws(RecordStoreError) -> Store {
        Store(engine: try SQLiteEngine(path: path, progress: progress), mode: mode)
    }

    /// Opens a SQLite store whose planner never calls back into Swift from SQL (no `query_test`,
    /// `query_distance` nor Swift collations), as a database server cannot: what SQL cannot
    /// answer exactly becomes a superset condition plus the residual predicate. The test suites
    /// run it beside the other engines, so that the fallback a server engine relies on is checked
    /// on every behaviour.
    ///
    /// ```swift
    /// let store = try Store.openPortableSQLite(path: "/tmp/portable.sqlite")
    /// ```
    package static func openPortableSQLite(path: String, mode: SchemaMode = .development) throws(RecordStoreError) -> Store {
        Store(engine: try SQLiteEngine(path: path, evaluatorCallbacks: false), mode: mode)
    }

    /// Opens (creating when needed) the store a location names, choosing the engine by its scheme:
    ///
    /// - a file path, `sqlite:PATH` or `file:///PATH`: SQLite (``open(path:mode:progress:)``);
    /// - `memory:`: a new store in memory (``inMemory(mode:)``).
    ///
    /// Any other scheme is ``RecordStoreError/invalidStoreLocation(_:reason:)``, naming the
    /// schemes this build knows.
    ///
    /// ```swift
    /// let store = try await Store.open(url: "sqlite:cities.sqlite")
    /// let scratch = try await Store.open(url: "memory:")
    /// ```
    ///
    /// `postgres://` locations need the `RecordStorePostgres` library: with it imported, its
    /// `Store.open(url:mode:)` (which this one defers to) opens them too.
    @_disfavoredOverload
    public static func open(url location: String, mode: SchemaMode = .development) async throws(RecordStoreError) -> Store {
        let parsed = try StoreLocation(location)
        if case .postgres = parsed {
            throw .invalidStoreLocation(location, reason: "PostgreSQL stores are opened by the RecordStorePostgres library: add it to your target and `import RecordStorePostgres`")
        }
        return try await openEmbedded(parsed, mode: mode)
    }

    /// Opens an embedded store (SQLite or memory) from `async` code: opening a file (and
    /// migrating its layout) is blocking I/O, kept off the cooperative pool.
    package static func openEmbedded(_ location: StoreLocation, mode: SchemaMode) async throws(RecordStoreError) -> Store {
        try await BlockingWork.run { () throws(RecordStoreError) in try open(location, mode: mode, progress: nil) }
    }

    /// Opens an embedded store (SQLite or memory) at a parsed location, synchronously, for
    /// synchronous callers such as the `query` tool; it blocks the calling thread while a file
    /// opens. `progress` is as in ``open(path:mode:progress:)``.
    ///
    /// ```swift
    /// let store = try Store.open(StoreLocation("sqlite:cities.sqlite"))
    /// ```
    public static func open(
        _ location: StoreLocation, mode: SchemaMode = .development, progress: StoreOpeningProgressHandler? = nil
    ) throws(RecordStoreError) -> Store {
        switch location {
        case .memory: inMemory(mode: mode)
        case .sqliteFile(let path): try open(path: path, mode: mode, progress: progress)
        case .postgres: throw .synchronousAccessUnavailable(engine: "postgres")
        }
    }
}

/// Where a store lives, parsed from the text given to ``Store/open(url:mode:)``: a file path,
/// `sqlite:PATH`, `sqlite:///ABSOLUTE/PATH`, `file:///PATH` (percent escapes decoded), `memory:`,
/// or `postgres://...` (checked further when the `RecordStorePostgres` library opens it).
///
/// ```swift
/// try StoreLocation("sqlite:cities.sqlite")   // .sqliteFile("cities.sqlite")
/// try StoreLocation("memory:")                // .memory
/// try StoreLocation("ftp://x")                // throws invalidStoreLocation: unknown scheme 'ftp'
/// ```
public enum StoreLocation: Equatable, Sendable {
    /// A SQLite database file.
    case sqliteFile(String)
    /// A new store in memory.
    case memory
    /// A PostgreSQL database, by its URL (`postgres://user:password@host:port/database`,
    /// also `postgresql://`), opened by the `RecordStorePostgres` library.
    case postgres(url: String)

    /// The schemes ``Store/open(url:mode:)`` knows, for error messages.
    static let knownSchemes = "a file path, sqlite:PATH, file:///PATH, memory: or postgres://user:password@host:port/database"

    /// Parses a location; throws ``RecordStoreError/invalidStoreLocation(_:reason:)`` for an unknown scheme.
    public init(_ location: String) throws(RecordStoreError) {
        guard !location.isEmpty else { throw .invalidStoreLocation(location, reason: "the location is empty") }
        guard let colon = location.firstIndex(of: ":"), Self.isScheme(location[..<colon]) else {
            self = .sqliteFile(location)
            return
        }
        let scheme = location[..<colon].lowercased()
        var rest = String(location[location.index(after: colon)...])
        switch scheme {
        case "memory":
            self = .memory
        case "postgres", "postgresql":
            self = .postgres(url: location)
        case "sqlite", "file":
            if rest.hasPrefix("//") {
                rest.removeFirst(2)
                // sqlite://host/path is not a local file; only an empty host (sqlite:///path) is.
                guard rest.hasPrefix("/") else {
                    throw .invalidStoreLocation(location, reason: "a \(scheme) location names a local file: write \(scheme):///absolute/path or \(scheme):relative/path")
                }
            }
            guard !rest.isEmpty else { throw .invalidStoreLocation(location, reason: "the \(scheme) location has no file path") }
            self = .sqliteFile(rest.removingPercentEncoding ?? rest)
        default:
            throw .invalidStoreLocation(location, reason: "unknown scheme '\(scheme)'; this build opens \(Self.knownSchemes)")
        }
    }

    /// Whether text before a colon is a URL scheme (a letter, then letters, digits, `+`, `-`, `.`),
    /// and not a one-letter drive name.
    private static func isScheme(_ text: Substring) -> Bool {
        guard text.count > 1, let first = text.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }
}

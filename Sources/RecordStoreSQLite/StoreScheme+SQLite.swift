import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

extension StoreScheme {
    /// SQLite files: a plain path, `sqlite:PATH`, `sqlite:///ABSOLUTE/PATH` or `file:///PATH`
    /// (percent escapes decoded); the file is created when missing (``SQLiteEngine``).
    ///
    /// ```swift
    /// let store = try await Store.open(url: "sqlite:cities.sqlite")
    /// ```
    public static let sqlite = StoreScheme(
        names: ["sqlite", "file"], opensPlainPaths: true, usage: "a file path, sqlite:PATH, file:///PATH", answersSynchronously: true
    ) { location, progress throws(RecordStoreError) in
        let path = try sqlitePath(location)
        return try await BlockingWork.run { () throws(RecordStoreError) in try SQLiteEngine(path: path, progress: progress) }
    }

    /// The file path a SQLite location names.
    static func sqlitePath(_ location: StoreLocation) throws(RecordStoreError) -> String {
        guard let scheme = location.scheme else { return location.text }
        var rest = location.remainder
        if rest.hasPrefix("//") {
            rest.removeFirst(2)
            // sqlite://host/path is not a local file; only an empty host (sqlite:///path) is.
            guard rest.hasPrefix("/") else {
                throw .invalidStoreLocation(location.text, reason: "a \(scheme) location names a local file: write \(scheme):///absolute/path or \(scheme):relative/path")
            }
        }
        guard !rest.isEmpty else { throw .invalidStoreLocation(location.text, reason: "the \(scheme) location has no file path") }
        return rest.removingPercentEncoding ?? rest
    }
}

extension StoreLocation {
    /// The SQLite file this location names (a plain path, `sqlite:` or `file:`); nil for any
    /// other kind of store or a malformed SQLite location.
    ///
    /// ```swift
    /// try StoreLocation("sqlite:cities.sqlite").sqliteFile   // "cities.sqlite"
    /// try StoreLocation("memory:").sqliteFile                // nil
    /// ```
    public var sqliteFile: String? {
        guard scheme == nil || StoreScheme.sqlite.names.contains(scheme ?? "") else { return nil }
        return try? StoreScheme.sqlitePath(self)
    }
}

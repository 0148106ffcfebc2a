import Foundation
@_spi(StorageEngine) import RecordStoreCore
import RecordStoreSQLite

extension Store {
    /// Opens (creating when needed) the store a location names, choosing the engine by its
    /// scheme through ``StoreRegistry``:
    ///
    /// - a file path, `sqlite:PATH` or `file:///PATH`: SQLite (``open(path:mode:progress:)``);
    /// - `memory:`: a new store in memory (``inMemory(mode:)``);
    /// - any scheme an engine library registered (`postgres://...` once the application
    ///   registered `RecordStorePostgres`'s scheme).
    ///
    /// Any other scheme is ``RecordStoreError/invalidStoreLocation(_:reason:)``, naming the
    /// registered ones. `progress` hears how opening goes (a SQLite file written by an older
    /// version is brought to the current layout first).
    ///
    /// ```swift
    /// let store = try await Store.open(url: "sqlite:cities.sqlite")
    /// let scratch = try await Store.open(url: "memory:")
    /// ```
    public static func open(
        url location: String, mode: SchemaMode = .development, progress: StoreOpeningProgressHandler? = nil
    ) async throws(RecordStoreError) -> Store {
        let parsed = try StoreLocation(location)
        let scheme = try registry.scheme(for: parsed)
        return Store(engine: try await scheme.open(parsed, progress), mode: mode)
    }

    /// Opens (creating when needed) the store a location names, synchronously, for synchronous
    /// callers such as the `query` tool: the kinds of store that answer synchronously (SQLite,
    /// memory); it blocks the calling thread while a file opens. `progress` is as in
    /// ``open(url:mode:progress:)``.
    ///
    /// ```swift
    /// let store = try Store.open(StoreLocation("sqlite:cities.sqlite"))
    /// ```
    public static func open(
        _ location: StoreLocation, mode: SchemaMode = .development, progress: StoreOpeningProgressHandler? = nil
    ) throws(RecordStoreError) -> Store {
        let scheme = try registry.scheme(for: location)
        guard scheme.answersSynchronously else { throw .synchronousAccessUnavailable(engine: location.scheme ?? location.text) }
        return Store(engine: try SynchronousCall.wait { () async throws(RecordStoreError) in try await scheme.open(location, progress) }, mode: mode)
    }

    /// The registry, with the kinds of store this library brings registered (once, unless an
    /// application registered its own for their names first).
    package static var registry: StoreRegistry {
        _ = builtInSchemesRegistered
        return StoreRegistry.shared
    }

    private static let builtInSchemesRegistered: Void = {
        for scheme in [StoreScheme.sqlite, .memory] where !scheme.names.contains(where: StoreRegistry.shared.isRegistered) {
            StoreRegistry.shared.register(scheme)
        }
    }()
}

import RecordStore
#if PostgreSQL
import RecordStorePostgres
#endif

/// The engines the `query` tool opens stores with, beyond those `RecordStore` registers itself
/// (SQLite files and `memory:`): the one place to add an engine to the tool.
enum CommandEngines {
    /// Registers the tool's engines (once).
    static func register() {
        _ = registered
    }

    /// The locations the tool opens, for `--db`'s help: what the registered engines say.
    static var locations: String {
        register()
        return Store.registry.openableLocations
    }

    private static let registered: Void = {
        #if PostgreSQL
        StoreRegistry.shared.register(.postgres)
        #endif
    }()
}

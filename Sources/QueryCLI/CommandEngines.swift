import RecordStore
import RecordStorePostgres

/// The engines the `query` tool opens stores with, beyond those `RecordStore` registers itself
/// (SQLite files and `memory:`): the one place to add an engine to the tool.
enum CommandEngines {
    /// Registers the tool's engines (once).
    static func register() {
        _ = registered
    }

    private static let registered: Void = {
        StoreRegistry.shared.register(.postgres)
    }()
}

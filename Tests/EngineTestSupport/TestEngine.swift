import Foundation
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import RecordStorePostgres
import TestSupport

/// The engines every engine-parameterized suite runs on: the one list to extend when an engine
/// is added (conformance, differential, paging, aggregates, the store behaviours and the Query
/// package suite all take their engines from here).
///
/// ``memory`` is the reference: it evaluates every predicate in Swift, and the other engines
/// must give its answers.
///
/// ```swift
/// @Test(arguments: TestEngine.allCases)
/// func counts(engine: TestEngine) throws {
///     let store = try engine.makeStore()
///     ...
/// }
/// ```
package enum TestEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The memory engine: the reference.
    case memory
    /// SQLite with its Swift callbacks (`query_test`, `query_distance`, collations): the default.
    case sqlite
    /// SQLite without callbacks into Swift, as a database server plans: superset SQL and the residual.
    case portableSQLite = "sqlite-portable"
    /// PostgreSQL, at the server `QUERY_TEST_POSTGRES_URL` names (`.ci/run` starts one), each
    /// store in a schema of its own. Without that variable the engine is left out, with a
    /// printed reason, unless `CI` is set: then every test that needs it fails.
    case postgres

    package var description: String { rawValue }

    /// The engines the suites run on: all of them, but PostgreSQL only when a server is
    /// configured or CI requires it.
    package static var allCases: [TestEngine] {
        PostgresTestServer.isRequired || PostgresTestServer.url != nil ? [.memory, .sqlite, .portableSQLite, .postgres] : [.memory, .sqlite, .portableSQLite]
    }

    /// The name the store reports (``Store/engineName``): both SQLite variants are `sqlite`.
    package var engineName: String {
        switch self {
        case .memory: "memory"
        case .sqlite, .portableSQLite: "sqlite"
        case .postgres: "postgres"
        }
    }

    /// Registers the engines the tests open by location beyond those `RecordStore` registers
    /// (SQLite, memory): the one place the test suites name them.
    ///
    /// - `sqlite-portable:PATH`: SQLite without callbacks into Swift (``portableSQLite``);
    /// - `postgres://`: PostgreSQL with its connection pool on threads of its own
    ///   (``WaitingEngine/executor``), since the synchronous suites may block every thread of the
    ///   cooperative pool while they wait.
    package static func registerEngines() {
        _ = enginesRegistered
    }

    private static let enginesRegistered: Void = {
        StoreRegistry.shared.register(StoreScheme(
            names: ["sqlite-portable"], usage: "sqlite-portable:PATH", answersSynchronously: true
        ) { location, _ throws(RecordStoreError) in
            try Store.openPortableSQLite(path: location.remainder).engine
        })
        StoreRegistry.shared.register(StoreScheme(
            names: StoreScheme.postgres.names, usage: StoreScheme.postgres.usage, answersSynchronously: false
        ) { location, progress throws(RecordStoreError) in
            try await PostgresEngineOpener.open(url: location.text, poolExecutor: WaitingEngine.executor, progress: progress)
        })
    }()

    /// The engine whose answers the others must match.
    package static let reference = TestEngine.memory

    /// A new, empty store of this engine (SQLite in a fresh temporary file), opened by location
    /// through the registry of schemes, as applications open theirs.
    package func makeStore(mode: SchemaMode = .development) throws(RecordStoreError) -> Store {
        Self.registerEngines()
        switch self {
        case .memory: return try Store.open(StoreLocation("memory:"), mode: mode)
        case .sqlite: return try Store.open(StoreLocation("sqlite:" + Self.temporaryDatabasePath(rawValue)), mode: mode)
        case .portableSQLite: return try Store.open(StoreLocation("sqlite-portable:" + Self.temporaryDatabasePath(rawValue)), mode: mode)
        case .postgres: return try PostgresTestServer.makeStore(mode: mode)
        }
    }

    /// A new, empty store of every engine, in ``allCases`` order.
    package static func freshStores(mode: SchemaMode = .development) throws(RecordStoreError) -> [Store] {
        var stores: [Store] = []
        for engine in allCases { stores.append(try engine.makeStore(mode: mode)) }
        return stores
    }

    /// The path of a file of the repository's `Datasets/` folder (found from this source file,
    /// so that tests run from any directory).
    package static func datasetPath(_ name: String) -> String {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent("Datasets").appendingPathComponent(name).path
    }

    /// A fresh temporary database path, in a folder of its own inside the test process's
    /// folder (``TestFolders``), which is removed when the process exits (a full run writes
    /// gigabytes).
    package static func temporaryDatabasePath(_ name: String) -> String {
        TestFolders.file("database", named: "\(name).sqlite")
    }
}

import EngineTestSupport
import Foundation
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import TestSupport

/// The engines that write backups, and fresh locations of theirs, for the backup suites.
enum BackupTestStores {
    /// SQLite always; PostgreSQL when a test server is configured (or CI requires one).
    static var engines: [TestEngine] {
        TestEngine.allCases.filter { $0 == .sqlite || $0 == .postgres }
    }

    /// The location of a new, empty store of `engine`.
    static func freshLocation(_ engine: TestEngine) throws(RecordStoreError) -> String {
        TestEngine.registerEngines()
        switch engine {
        case .postgres: return try PostgresTestServer.freshStoreURL()
        default: return "sqlite:" + TestEngine.temporaryDatabasePath("backup")
        }
    }

    /// A path for a backup folder that does not exist yet.
    static func freshBackupPath() -> String {
        TestFolders.make("backup").appendingPathComponent("backup").path
    }
}

import Foundation

/// Temporary folders for the tests, all inside one folder per test process, which is removed
/// when the process exits: a full run makes thousands of stores (gigabytes), and a test that
/// fails or is interrupted half-way would otherwise leave its files behind.
///
/// ```swift
/// let folder = TestFolders.make("export-streaming")     // .../query-tests-<UUID>/export-streaming-<UUID>
/// let database = folder.appendingPathComponent("store.sqlite").path
/// ```
package enum TestFolders {
    /// A new, empty folder named after `purpose`.
    package static func make(_ purpose: String) -> URL {
        let folder = processFolder.appendingPathComponent("\(purpose)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A path for a new file named `name` (an extension included) in a folder of its own.
    package static func file(_ purpose: String, named name: String) -> String {
        make(purpose).appendingPathComponent(name).path
    }

    /// The folder of this test process's temporary files, removed at exit.
    private static let processFolder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("query-tests-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: TestFolders.processFolder) }
        return folder
    }()
}

import Foundation
import Testing
import TestSupport

/// `--db` takes a store location: a file path, `sqlite:PATH`, `file:///PATH` or `memory:`; any
/// other scheme is a clear error (exit status 1), never a file of that odd name.
@Suite("query --db with store locations")
struct StoreLocationCommandTests {
    @Test func sqliteFileAndMemoryLocations() async throws {
        let folder = TestFolders.make("locations")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let input = folder.appendingPathComponent("items.jsonl")
        try Data("{\"id\": \"a\", \"rank\": 1}\n{\"id\": \"b\", \"rank\": 2}\n".utf8).write(to: input)
        let database = folder.appendingPathComponent("items.sqlite").path
        let imported = try await CommandRunner.run(["import", "--db", "sqlite:\(database)", "--type", "Item", "--id", "id", input.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        for location in [database, "sqlite:\(database)", "sqlite://\(database)", "file://\(database)"] {
            let counted = try await CommandRunner.run(["count", "--db", location, "Item", "rank > 0"])
            #expect(counted.status == 0, "\(location): \(counted.standardError)")
            #expect(counted.standardOutput == "2\n", "\(location)")
        }
        // memory: is a new, empty store each time.
        let empty = try await CommandRunner.run(["count", "--db", "memory:", "Item", "TRUEPREDICATE"])
        #expect(empty.status == 1)
        #expect(empty.standardError == "error: Did not find record type 'Item'\n")
    }

    @Test func unknownSchemesAreErrors() async throws {
        let outcome = try await CommandRunner.run(["count", "--db", "ftp://example.com/items", "Item", "TRUEPREDICATE"])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == "")
        #expect(outcome.standardError
            == "error: Cannot open a store at 'ftp://example.com/items': unknown scheme 'ftp'; this build opens a file path, sqlite:PATH, file:///PATH, memory: or postgres://user:password@host:port/database\n")
        #expect(!FileManager.default.fileExists(atPath: "ftp:"))
    }
}

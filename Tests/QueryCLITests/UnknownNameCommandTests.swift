import Foundation
import Testing
import TestSupport

/// `query count`, `find` and `--sort` with a misspelt record type or field: exit status 1 and an
/// error naming the closest names, never a count of 0.
@Suite("query with unknown record types and fields")
struct UnknownNameCommandTests {
    /// A fresh database holding three `City` records.
    private static func cityDatabase() async throws -> String {
        let folder = TestFolders.make("unknown-names")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let input = folder.appendingPathComponent("cities.jsonl")
        try Data("""
            {"id": "1", "name": "Paris", "population": 2145906}
            {"id": "2", "name": "Lyon", "population": 522250}
            {"id": "3", "name": "Nice", "population": 342669}

            """.utf8).write(to: input)
        let database = folder.appendingPathComponent("cities.sqlite").path
        let imported = try await CommandRunner.run(["import", "--db", database, "--type", "City", "--id", "id", input.path])
        #expect(imported.status == 0, "import failed: \(imported.standardError)")
        return database
    }

    @Test func misspeltNamesAreErrorsWithSuggestions() async throws {
        let database = try await Self.cityDatabase()
        let cases: [([String], String)] = [
            (["count", "--db", database, "Cty", "TRUEPREDICATE"], "error: Did not find record type 'Cty'; did you mean 'City'?\n"),
            (["count", "--db", database, "City", "nosuchfield == 3"], "error: Field 'nosuchfield' does not exist in record type 'City'\n"),
            (["find", "--db", database, "City", "populaton > 1000"],
             "error: Field 'populaton' does not exist in record type 'City'; did you mean 'population'?\n"),
            (["find", "--db", database, "City", "TRUEPREDICATE", "--sort", "-nosuch"], "error: Field 'nosuch' does not exist in record type 'City'\n"),
        ]
        for (arguments, expected) in cases {
            let outcome = try await CommandRunner.run(arguments)
            #expect(outcome.status == 1, "\(arguments)")
            #expect(outcome.standardOutput == "", "\(arguments)")
            #expect(outcome.standardError == expected, "\(arguments)")
        }
        let known = try await CommandRunner.run(["count", "--db", database, "City", "population > 500000"])
        #expect(known.status == 0)
        #expect(known.standardOutput == "2\n")
    }
}

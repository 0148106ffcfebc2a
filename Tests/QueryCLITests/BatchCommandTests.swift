import Foundation
import TestSupport
import Testing

/// `query delete --where` and `query update --where --set`: batch requests from the command line,
/// with their counts, the change history they leave, and clear errors for bad flags.
@Suite("query delete --where and query update")
struct BatchCommandTests {
    /// A store with five cities, saved from JSON lines.
    static func store(_ name: String) async throws -> String {
        let database = TestFolders.make(name).appendingPathComponent("cities.sqlite").path
        let lines = [
            #"{"recordName": "1", "fields": {"name": "Paris", "population": 2138551, "countrycode": "FR"}}"#,
            #"{"recordName": "2", "fields": {"name": "Lyon", "population": 513275, "countrycode": "FR"}}"#,
            #"{"recordName": "3", "fields": {"name": "Berlin", "population": 3426354, "countrycode": "DE"}}"#,
            #"{"recordName": "4", "fields": {"name": "Vaduz", "population": 5197, "countrycode": "LI"}}"#,
            #"{"recordName": "5", "fields": {"name": "Hum", "population": 30, "countrycode": "HR"}}"#,
        ]
        let saved = try await CommandRunner.run(["save", "--db", database, "City"], input: lines.joined(separator: "\n") + "\n")
        #expect(saved.status == 0, "\(saved.standardError)")
        return database
    }

    @Test("delete --where deletes the matches in one transaction and update --set changes them")
    func deleteAndUpdate() async throws {
        let database = try await Self.store("batch-commands")
        let deleted = try await CommandRunner.run(["delete", "--db", database, "City", "--where", "population < %@", "--arg", "10000"])
        #expect(deleted.status == 0, "\(deleted.standardError)")
        #expect(deleted.standardOutput == "Deleted 2 City records\n")
        let updated = try await CommandRunner.run([
            "update", "--db", database, "City", "--where", "countrycode == 'FR'", "--set", #"continent="Europe""#, "--set", "population=null",
        ])
        #expect(updated.status == 0, "\(updated.standardError)")
        #expect(updated.standardOutput == "Updated 2 City records\n")
        let found = try await CommandRunner.run(["find", "--db", database, "City", "TRUEPREDICATE", "--keys", "name,population,continent", "--sort", "name"])
        #expect(found.standardOutput == """
            recordName  name    population  continent
            ----------  ------  ----------  ---------
            3           Berlin  3426354
            2           Lyon                Europe
            1           Paris               Europe
            (3 records)

            """)
        // The history holds the two deletions and the two updates.
        let changes = try await CommandRunner.run(["changes", "--db", database, "--output", "jsonl"])
        let lines = changes.standardOutput.split(separator: "\n")
        #expect(lines.filter { $0.contains(#""deleted":true"#) || $0.contains(#""deleted": true"#) }.count == 2, "\(changes.standardOutput)")
    }

    @Test("bad batch flags are refused with what was wrong, and nothing changes")
    func badFlags() async throws {
        let database = try await Self.store("batch-command-errors")
        let both = try await CommandRunner.run(["delete", "--db", database, "City", "1", "--where", "TRUEPREDICATE"])
        #expect(both.status != 0)
        #expect(both.standardError.hasPrefix("Error: give record names or --where, not both"))
        let neither = try await CommandRunner.run(["delete", "--db", database, "City"])
        #expect(neither.standardError.hasPrefix("Error: name at least one record to delete, or give --where"))
        let noSet = try await CommandRunner.run(["update", "--db", database, "City", "--where", "TRUEPREDICATE"])
        #expect(noSet.standardError.hasPrefix("Error: give at least one --set FIELD=JSON"))
        let notAssignment = try await CommandRunner.run(["update", "--db", database, "City", "--set", "continent"])
        #expect(notAssignment.standardError == "error: --set number 1 ('continent') is not FIELD=JSON\n")
        let notJSON = try await CommandRunner.run(["update", "--db", database, "City", "--set", "continent=Europe"])
        #expect(notJSON.status == 1)
        #expect(notJSON.standardError.hasPrefix("error: --set continent=… is not a JSON value: "))
        let badPredicate = try await CommandRunner.run(["delete", "--db", database, "City", "--where", "population <"])
        #expect(badPredicate.status == 1)
        let wrongType = try await CommandRunner.run(["update", "--db", database, "City", "--set", #"population="many""#])
        #expect(wrongType.status == 1)
        #expect(wrongType.standardError.contains("population"), "\(wrongType.standardError)")
        let count = try await CommandRunner.run(["count", "--db", database, "City", "TRUEPREDICATE"])
        #expect(count.standardOutput == "5\n")
    }
}

import Foundation
import Testing

/// `--sort KEY:comparison` and `--limit 0` (issue #27, items 10 and 11): the store's `Sort` comparisons
/// (Core Data's `NSSortDescriptor` selectors `compare:`, `caseInsensitiveCompare:`, `localizedCompare:`,
/// `localizedCaseInsensitiveCompare:`, `localizedStandardCompare:`) reached from the shell.
@Suite("query find: --sort comparisons and --limit 0")
struct SortAndLimitCommandTests {
    /// A fresh store of Files named "File 10", "file 2", "File 1" and "Émile", and its path.
    private func store() async throws -> String {
        try await CommandRunner.importedStore("sort-cli", recordType: "File", jsonLines: [
            #"{"id": "a", "name": "File 10"}"#, #"{"id": "b", "name": "file 2"}"#, #"{"id": "c", "name": "File 1"}"#,
            #"{"id": "d", "name": "Émile"}"#,
        ])
    }

    private func names(_ database: String, _ sort: String) async throws -> [String] {
        let outcome = try await CommandRunner.run(["find", "--db", database, "File", "TRUEPREDICATE", "--sort", sort, "--keys", "name", "--output", "jsonl"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return outcome.standardOutput.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: #""name":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    // localizedStandardCompare: numbers inside strings by value ("File 2" < "File 10"); caseInsensitiveCompare: case folded.
    @Test func sortsTakeAComparisonSuffix() async throws {
        let database = try await store()
        #expect(try await names(database, "name") == ["File 1", "File 10", "file 2", "Émile"])
        #expect(try await names(database, "name:compare") == ["File 1", "File 10", "file 2", "Émile"])
        #expect(try await names(database, "name:localizedStandard") == ["Émile", "File 1", "file 2", "File 10"])
        #expect(try await names(database, "-name:caseInsensitive") == ["Émile", "file 2", "File 10", "File 1"])
        #expect(try await names(database, "name:localized") == ["Émile", "File 1", "File 10", "file 2"])
        #expect(try await names(database, "name:localizedCaseInsensitive") == ["Émile", "File 1", "File 10", "file 2"])
    }

    @Test func anUnknownComparisonIsAUsageError() async throws {
        let database = try await store()
        let outcome = try await CommandRunner.run(["find", "--db", database, "File", "TRUEPREDICATE", "--sort", "name:natural"])
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput == "")
        #expect(outcome.standardError.hasPrefix(
            "Error: --sort name:natural: unknown comparison 'natural'; use one of compare, caseInsensitive, localized, localizedCaseInsensitive, localizedStandard\n"),
            "\(outcome.standardError)")
    }

    @Test func limitZeroIsAUsageError() async throws {
        let database = try await store()
        let outcome = try await CommandRunner.run(["find", "--db", database, "File", "TRUEPREDICATE", "--limit", "0"])
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput == "")
        #expect(outcome.standardError.hasPrefix("Error: --limit must be at least 1: a batch of 0 records prints nothing and no cursor\n"),
                "\(outcome.standardError)")
    }
}

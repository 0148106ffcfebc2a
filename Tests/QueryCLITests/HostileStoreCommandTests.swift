import Foundation
import Testing
import TestSupport

/// Hostile flags and arguments to the store commands (`import`, `find`, `count`) on a small store.
@Suite("Hardening: hostile input to query import, find and count")
struct HostileStoreCommandTests {
    /// A fresh store holding Items a, b and c (rank 1, 2, 3), and its path.
    private func store() async throws -> String {
        try await CommandRunner.importedStore(
            "hostile-cli", recordType: "Item", jsonLines: [#"{"id": "a", "rank": 1}"#, #"{"id": "b", "rank": 2}"#, #"{"id": "c", "rank": 3}"#])
    }

    private let typeNameRule = "use letters, digits and underscores, starting with a letter (at most 255), not starting with sqlite_"

    /// The store still answers: `find Item 'rank > 1'` prints b and c.
    private func expectIntact(_ database: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let outcome = try await CommandRunner.run(["find", "--db", database, "Item", "rank > 1", "--keys", "rank", "--output", "jsonl"])
        #expect(outcome.status == 0, sourceLocation: sourceLocation)
        #expect(outcome.standardOutput == #"""
            {"fields":{"rank":2},"recordName":"b","recordType":"Item","zone":"_defaultZone"}
            {"fields":{"rank":3},"recordName":"c","recordType":"Item","zone":"_defaultZone"}

            """#, sourceLocation: sourceLocation)
    }

    @Test func recordTypesWithSQLOrQuotesAreRejected() async throws {
        let database = try await store()
        for type in [#"Item"; DROP TABLE "Item"; --"#, "It'em", "x y", "sqlite_master", "Item\n"] {
            for command in ["find", "count"] {
                let outcome = try await CommandRunner.run([command, "--db", database, type, "TRUEPREDICATE"])
                #expect(outcome.status == 1, "\(command) \(type)")
                #expect(outcome.standardOutput == "")
                #expect(outcome.standardError == "error: Invalid record type name '\(type)': \(typeNameRule)\n", "\(command) \(type)")
            }
        }
        let empty = try await CommandRunner.run(["find", "--db", database, "", "TRUEPREDICATE"])
        #expect(empty.status == 1)
        #expect(empty.standardError == "error: Invalid query: the record type is empty\n")
        let file = TestFolders.make("hostile").appendingPathComponent("input.jsonl")
        try Data(#"{"id": "x"}"#.utf8).write(to: file)
        let imported = try await CommandRunner.run(["import", "--db", database, "--type", "It'em\"; --", "--id", "id", file.path])
        #expect(imported.status == 1)
        #expect(imported.standardError == "error: Invalid record type name 'It'em\"; --': \(typeNameRule)\n")
        try await expectIntact(database)
    }

    /// Runs `query` and expects it to fail with exit status 1, no output, and exactly this error.
    private func expectFailure(_ arguments: [String], error: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let outcome = try await CommandRunner.run(arguments)
        #expect(outcome.status == 1, sourceLocation: sourceLocation)
        #expect(outcome.standardOutput == "", sourceLocation: sourceLocation)
        #expect(outcome.standardError == "error: \(error)\n", sourceLocation: sourceLocation)
    }

    @Test func zonesWithSQLAreUnknownZones() async throws {
        let database = try await store()
        for zone in ["' OR 1=1 --", #"_defaultZone" OR "1"="1"#, "_defaultZone "] {
            try await expectFailure(["find", "--db", database, "Item", "rank > 0", "--zone", zone], error: "Zone '\(zone)' does not exist")
        }
        try await expectIntact(database)
    }

    @Test func sortKeysWithSQLAreUnknownFields() async throws {
        let database = try await store()
        // A sort key with SQL in it is only a name, and no field has it: the query is refused.
        let keys = [#""; DROP TABLE "Item"; --"#: #""; DROP TABLE "Item"; --"#, "-rank; DROP TABLE Item": "rank; DROP TABLE Item",
                    "rank DESC": "rank DESC", "(SELECT 1)": "(SELECT 1)"]
        for (argument, field) in keys {
            try await expectFailure(["find", "--db", database, "Item", "rank < 3", "--sort", argument, "--keys", "rank", "--output", "jsonl"],
                              error: "Field '\(field)' does not exist in record type 'Item'")
        }
        let empty = try await CommandRunner.run(["find", "--db", database, "Item", "rank < 3", "--sort", "-"])
        #expect(empty.status == 1)
        #expect(empty.standardError == "error: Cannot sort by '-': the key is empty\n")
        try await expectIntact(database)
    }

    @Test func garbageCursorsAreMalformed() async throws {
        let database = try await store()
        // (An argument holds at most 128 KB on Linux.)
        for cursor in ["'; DROP TABLE Item; --", "", "AAAA", String(repeating: "A", count: 100_000), String(repeating: "é", count: 50_000)] {
            try await expectFailure(
                ["find", "--db", database, "Item", "rank > 0", "--cursor", cursor],
                error: "Invalid cursor: the text is not a cursor of this store (malformed)")
        }
        try await expectIntact(database)
    }

    @Test func negativeAndHugeLimits() async throws {
        let database = try await store()
        let negative = try await CommandRunner.run(["find", "--db", database, "Item", "rank > 0", "--limit=-1"])
        #expect(negative.status == 2)
        #expect(negative.standardError.hasPrefix("Error: --limit must not be negative\n"), "\(negative.standardError)")
        let tooBig = try await CommandRunner.run(["find", "--db", database, "Item", "rank > 0", "--limit", "99999999999999999999"])
        #expect(tooBig.status == 2)
        #expect(tooBig.standardError.hasPrefix("Error: The value '99999999999999999999' is invalid for '--limit <limit>'"), "\(tooBig.standardError)")
        // The largest limit reads everything (it once overflowed computing limit + 1).
        let largest = try await CommandRunner.run(["find", "--db", database, "Item", "rank > 1", "--limit", String(Int.max), "--keys", "rank", "--output", "jsonl"])
        #expect(largest.status == 0)
        #expect(largest.standardOutput == #"""
            {"fields":{"rank":2},"recordName":"b","recordType":"Item","zone":"_defaultZone"}
            {"fields":{"rank":3},"recordName":"c","recordType":"Item","zone":"_defaultZone"}

            """#)
        try await expectIntact(database)
    }
}

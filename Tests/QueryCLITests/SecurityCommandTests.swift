import Foundation
import PredicateLanguage
import RecordStore
import Testing
import TestSupport

/// `query roles` and `query find --as USER`: the custom roles of the store's security policy and
/// what a user of `query serve` would read in the public database.
@Suite("query roles and query find --as")
struct SecurityCommandTests {
    static let schema = """
        DEFINE SCHEMA
            CREATE ROLE Moderator;
            RECORD TYPE Note (title STRING QUERYABLE SORTABLE, GRANT READ TO "_creator", GRANT READ TO Moderator);
        """

    /// The record names a `find --output jsonl` printed, in order.
    static func names(_ output: String) throws -> [String] {
        try output.split(separator: "\n").compactMap { line in
            guard case .object(let object) = try JSONValue(parsing: Data(line.utf8)), case .string(let name)? = object["recordName"] else { return nil }
            return name
        }
    }

    @Test("find --as reads what the grants give a user; roles assigned and taken away change it")
    func rolesAndFindAs() async throws {
        let database = TestFolders.file("security-command", named: "notes.sqlite")
        let applied = try await CommandRunner.run(["schema", "apply", "--db", database, "-"], input: Self.schema)
        #expect(applied.standardOutput == "Applied 1 record type (1 field)\nSecurity: 1 role, 2 grants (enforced by query serve in the public database)\n")
        func user(_ email: String) async throws -> String {
            let added = try await CommandRunner.run(["users", "add", "--db", database, "--email", email])
            #expect(added.status == 0, "\(added.standardError)")
            return added.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let ada = try await user("ada@example.org"), bob = try await user("bob@example.org")
        let store = try Store.open(path: database)
        for (name, author) in [("a1", ada), ("a2", ada), ("b1", bob)] {
            let note = Record(recordType: "Note", recordID: RecordID(recordName: name), fields: ["title": .string(name)])
            #expect(try await store.modify(saving: [note], deleting: [], author: author).isSuccess)
        }
        func find(as caller: String?) async throws -> CommandRunner.Outcome {
            try await CommandRunner.run(["find", "--db", database, "Note", "TRUEPREDICATE", "--sort", "title", "--output", "jsonl"] + (caller.map { ["--as", $0] } ?? []))
        }

        #expect(try await Self.names(find(as: nil).standardOutput) == ["a1", "a2", "b1"])
        #expect(try await Self.names(find(as: ada).standardOutput) == ["a1", "a2"])
        #expect(try await Self.names(find(as: bob).standardOutput) == ["b1"])
        let anonymous = try await find(as: "anonymous")
        #expect(anonymous.status == 1)
        #expect(anonymous.standardError.contains("ACCESS_DENIED: record type 'Note' grants READ to '_creator', 'Moderator', not to a caller who is not signed in"))

        let assigned = try await CommandRunner.run(["roles", "assign", "--db", database, "Moderator", "bob@example.org"])
        #expect(assigned.standardOutput == "\(bob) holds Moderator\n")
        #expect(try await Self.names(find(as: bob).standardOutput) == ["a1", "a2", "b1"])
        #expect(try await CommandRunner.run(["roles", "list", "--db", database]).standardOutput == "Moderator\t\(bob)\tbob@example.org\n")
        let unknown = try await CommandRunner.run(["roles", "assign", "--db", database, "Editor", ada])
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("There is no role 'Editor': the schema declares 'Moderator'"))

        let removed = try await CommandRunner.run(["roles", "remove", "--db", database, "Moderator", bob])
        #expect(removed.standardOutput == "\(bob) no longer holds Moderator\n")
        #expect(try await Self.names(find(as: bob).standardOutput) == ["b1"])
        #expect(try await CommandRunner.run(["roles", "list", "--db", database]).standardOutput == "Moderator\t-\t-\n")
    }
}

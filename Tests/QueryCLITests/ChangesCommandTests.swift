import Foundation
import PredicateLanguage
import Testing
import TestSupport

/// `query changes` (issue #31): a zone's changes since a token, `--database`, and refused tokens.
@Suite("query changes")
struct ChangesCommandTests {
    /// A new store holding three notes, `a`, `b` and `c`, saved in one transaction.
    private static func notes() async throws -> String {
        let database = TestFolders.make("changes").appendingPathComponent("notes.sqlite").path
        let saved = try await CommandRunner.run(["save", "--db", database, "Note"], input: """
            {"recordName": "a", "fields": {"title": "Alpha"}}
            {"recordName": "b", "fields": {"title": "Beta"}}
            {"recordName": "c", "fields": {"title": "Gamma"}}

            """)
        #expect(saved.status == 0, "\(saved.standardError)")
        return database
    }

    /// Runs `query` and expects it to succeed.
    private static func succeeding(_ arguments: [String], input: String? = nil) async throws -> String {
        let outcome = try await CommandRunner.run(arguments, input: input)
        #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
        #expect(outcome.standardError.isEmpty)
        return outcome.standardOutput
    }

    /// The token of a table's `token: TOKEN` line (the last but one).
    private static func token(ofTable output: String) throws -> String {
        let lines = output.split(separator: "\n")
        let line = try #require(lines.dropLast().last)
        #expect(line.hasPrefix("token: "))
        return String(line.dropFirst("token: ".count))
    }

    /// The `token` field of a JSON document or of a JSON-lines output's last line.
    private static func token(ofJSON output: String) throws -> String {
        let last = try #require(output.split(separator: "\n").last)
        guard case .object(let object) = try Value(jsonText: String(last)), case .string(let token)? = object["token"] else {
            Issue.record("no token in \(last)")
            return ""
        }
        return token
    }

    @Test("the first run prints every record, the next with --since exactly the edit and the deletion")
    func firstRunThenChangesSince() async throws {
        let database = try await Self.notes()
        let first = try await Self.succeeding(["changes", "--db", database])
        let firstToken = try Self.token(ofTable: first)
        #expect(first == """
            recordName  recordType  title
            ----------  ----------  -----
            a           Note        Alpha
            b           Note        Beta
            c           Note        Gamma
            (3 records)
            token: \(firstToken)
            moreComing: false

            """)

        _ = try await Self.succeeding(["save", "--db", database, "Note", "--force", "--record", #"{"recordName": "b", "fields": {"title": "Beta 2"}}"#])
        #expect(try await Self.succeeding(["delete", "--db", database, "Note", "c"]) == "Deleted 1 Note record\n")

        let next = try await Self.succeeding(["changes", "--db", database, "--since", firstToken])
        let nextToken = try Self.token(ofTable: next)
        #expect(next == """
            recordName  recordType  title
            ----------  ----------  ------
            b           Note        Beta 2
            (1 record)
            deleted: Note c
            token: \(nextToken)
            moreComing: false

            """)

        // The same changes as JSON, and as JSON lines.
        let json = try await Self.succeeding(["changes", "--db", database, "--since", firstToken, "--output", "json"])
        let jsonToken = try Self.token(ofJSON: json)
        #expect(json == #"{"moreComing":false,"records":[{"fields":{"title":"Beta 2"},"recordName":"b","recordType":"Note","zone":"_defaultZone"},"#
            + #"{"deleted":true,"recordName":"c","recordType":"Note","zone":"_defaultZone"}],"token":"\#(jsonToken)"}"# + "\n")
        let lines = try await Self.succeeding(["changes", "--db", database, "--since", firstToken, "--output", "jsonl", "--desired-keys", ""])
        let linesToken = try Self.token(ofJSON: lines)
        #expect(lines == """
            {"fields":{},"recordName":"b","recordType":"Note","zone":"_defaultZone"}
            {"deleted":true,"recordName":"c","recordType":"Note","zone":"_defaultZone"}
            {"moreComing":false,"token":"\(linesToken)"}

            """)

        // Nothing changed since the last token.
        let none = try await Self.succeeding(["changes", "--db", database, "--since", nextToken])
        let noneToken = try Self.token(ofTable: none)
        #expect(none == """
            recordName  recordType  title
            ----------  ----------  -----
            (0 records)
            token: \(noneToken)
            moreComing: false

            """)
    }

    @Test("--limit prints one page and moreComing; the token continues to the end")
    func pagesWithLimit() async throws {
        let database = try await Self.notes()
        _ = try await Self.succeeding(["save", "--db", database, "Task", "--record", #"{"recordName": "t1", "fields": {"done": true}}"#])
        var pages: [String] = []
        var token: String?
        for _ in 0..<3 {
            let output = try await Self.succeeding(
                ["changes", "--db", database, "--limit", "2", "--output", "jsonl", "--keys", "title"] + (token.map { ["--since", $0] } ?? []))
            token = try Self.token(ofJSON: output)
            pages.append(output.replacingOccurrences(of: token ?? "", with: "TOKEN"))
        }
        #expect(pages == [
            """
            {"fields":{"title":"Alpha"},"recordName":"a","recordType":"Note","zone":"_defaultZone"}
            {"fields":{"title":"Beta"},"recordName":"b","recordType":"Note","zone":"_defaultZone"}
            {"moreComing":true,"token":"TOKEN"}

            """,
            """
            {"fields":{"title":"Gamma"},"recordName":"c","recordType":"Note","zone":"_defaultZone"}
            {"fields":{},"recordName":"t1","recordType":"Task","zone":"_defaultZone"}
            {"moreComing":false,"token":"TOKEN"}

            """,
            """
            {"moreComing":false,"token":"TOKEN"}

            """,
        ])
        // Only one record type, in a table with its fields.
        let tasks = try await Self.succeeding(["changes", "--db", database, "--record-type", "Task"])
        #expect(tasks == """
            recordName  recordType  done
            ----------  ----------  ----
            t1          Task        true
            (1 record)
            token: \(try Self.token(ofTable: tasks))
            moreComing: false

            """)
    }

    @Test("--database prints the zones created, changed and deleted since its token")
    func databaseChanges() async throws {
        let database = try await Self.notes()
        let first = try await Self.succeeding(["changes", "--db", database, "--database"])
        let firstToken = try Self.token(ofTable: first)
        #expect(first == "changed: _defaultZone\ntoken: \(firstToken)\nmoreComing: false\n")

        _ = try await Self.succeeding(["zones", "create", "--db", database, "Archive"])
        _ = try await Self.succeeding(["zones", "create", "--db", database, "Old"])
        _ = try await Self.succeeding(["zones", "delete", "--db", database, "Old"])
        let next = try await Self.succeeding(["changes", "--db", database, "--database", "--since", firstToken])
        #expect(next == "changed: Archive\ndeleted: Old\ntoken: \(try Self.token(ofTable: next))\nmoreComing: false\n")
        let json = try await Self.succeeding(["changes", "--db", database, "--database", "--since", firstToken, "--output", "json"])
        #expect(json == #"{"changedZones":["Archive"],"deletedZones":["Old"],"moreComing":false,"token":"\#(try Self.token(ofJSON: json))"}"# + "\n")

        // A record saved in a zone makes it a changed zone again.
        _ = try await Self.succeeding(["save", "--db", database, "Note", "--record", #"{"recordName": "z", "zone": "Archive", "fields": {"title": "Z"}}"#])
        let afterSave = try await Self.succeeding(["changes", "--db", database, "--database", "--since", try Self.token(ofTable: next), "--output", "jsonl"])
        #expect(afterSave == """
            {"zone":"Archive"}
            {"moreComing":false,"token":"\(try Self.token(ofJSON: afterSave))"}

            """)
    }

    @Test("an expired token is an error that says to run again without --since")
    func expiredToken() async throws {
        let database = try await Self.notes()
        _ = try await Self.succeeding(["zones", "create", "--db", database, "Notes"])
        let token = try await Self.token(ofTable: try Self.succeeding(["changes", "--db", database, "--zone", "Notes"]))
        // A zone deleted and created again since the token: its history before is gone.
        _ = try await Self.succeeding(["zones", "delete", "--db", database, "Notes"])
        _ = try await Self.succeeding(["zones", "create", "--db", database, "Notes"])
        let expired = try await CommandRunner.run(["changes", "--db", database, "--zone", "Notes", "--since", token])
        #expect(expired.status == 1)
        #expect(expired.standardOutput.isEmpty)
        #expect(expired.standardError == """
            error: the change token has expired: the store no longer keeps the history after it. \
            Run `query changes --zone Notes` without --since to read everything again, and continue from the token it prints

            """)
        let again = try await Self.succeeding(["changes", "--db", database, "--zone", "Notes", "--output", "jsonl"])
        #expect(again == "{\"moreComing\":false,\"token\":\"\(try Self.token(ofJSON: again))\"}\n")
    }

    @Test("a malformed token, another scope's token and wrong flags are refused")
    func invalidTokens() async throws {
        let database = try await Self.notes()
        let malformed = try await CommandRunner.run(["changes", "--db", database, "--since", "not-a-token"])
        #expect(malformed.status == 1)
        #expect(malformed.standardOutput.isEmpty)
        #expect(malformed.standardError == """
            error: invalid change token: the text is not a cursor of this store (malformed). \
            Pass a token printed by `query changes` on this store, or run it without --since to start over

            """)
        let zoneToken = try await Self.token(ofTable: try Self.succeeding(["changes", "--db", database]))
        let wrongScope = try await CommandRunner.run(["changes", "--db", database, "--database", "--since", zoneToken])
        #expect(wrongScope.status == 1)
        #expect(wrongScope.standardError.hasPrefix("error: invalid change token: "))
        #expect(wrongScope.standardError.contains("`query changes --database`"))

        let usage = try await CommandRunner.run(["changes", "--db", database, "--database", "--zone", "Notes"])
        #expect(usage.status == 2)
        #expect(usage.standardError.contains("--zone is for a zone's changes, not --database"))
        #expect(try await CommandRunner.run(["changes", "--db", database, "--limit", "0"]).status == 2)
        let missingZone = try await CommandRunner.run(["changes", "--db", database, "--zone", "Nowhere"])
        #expect(missingZone.status == 1)
        #expect(missingZone.standardOutput.isEmpty)
    }
}

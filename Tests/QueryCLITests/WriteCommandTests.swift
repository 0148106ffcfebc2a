import Foundation
import PredicateLanguage
import Testing
import TestSupport

/// `query save`, `query delete` and `query zones`: the command line writes, CloudKit's way.
@Suite("query save, delete and zones")
struct WriteCommandTests {
    private static func freshDatabase() throws -> String {
        let folder = TestFolders.make("write-commands")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("notes.sqlite").path
    }

    /// The `recordChangeTag` of each JSON line `save` printed, by record name.
    private static func changeTags(_ output: String) throws -> [String: String] {
        var tags: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard case .object(let object) = try Value(jsonText: String(line)),
                  case .string(let name)? = object["recordName"], case .string(let tag)? = object["recordChangeTag"] else {
                Issue.record("not a saved record's line: \(line)")
                continue
            }
            tags[name] = tag
        }
        return tags
    }

    /// `name=title` of every Note, by record name.
    private static func titles(_ database: String) async throws -> [String] {
        let found = try await CommandRunner.run(["find", "--db", database, "Note", "TRUEPREDICATE", "--output", "jsonl", "--sort", "recordName"])
        #expect(found.status == 0, "\(found.standardError)")
        return try found.standardOutput.split(separator: "\n").map { line in
            guard case .object(let record) = try Value(jsonText: String(line)), case .object(let fields)? = record["fields"] else { return "?" }
            return "\(record["recordName"]?.stringValue ?? "?")=\(fields["title"]?.stringValue ?? "-")"
        }
    }

    @Test func createsThenUpdatesWithTheChangeTagAndRefusesAStaleOne() async throws {
        let database = try Self.freshDatabase()
        let created = try await CommandRunner.run(["save", "--db", database, "Note", "--record",
                                             #"{"recordName": "n1", "fields": {"title": "First", "when": {"$date": "2024-05-01T12:00:00Z"}}}"#])
        #expect(created.status == 0, "\(created.standardError)")
        let firstTag = try #require(try Self.changeTags(created.standardOutput)["n1"])

        // Saving without the change tag over a stored record is a conflict; nothing changes.
        let again = try await CommandRunner.run(["save", "--db", database, "Note", "--record", #"{"recordName": "n1", "fields": {"title": "Lost"}}"#])
        #expect(again.status == 1)
        #expect(again.standardError.contains("Record 'n1' already exists"))
        #expect(again.standardError.contains("nothing of this batch was saved (--force replaces stored records)"))

        // With the tag it was read with, it updates; the old tag is stale after that.
        let updated = try await CommandRunner.run(["save", "--db", database, "Note", "--record",
                                             #"{"recordName": "n1", "recordChangeTag": "\#(firstTag)", "title": "Second"}"#])
        #expect(updated.status == 0, "\(updated.standardError)")
        let secondTag = try #require(try Self.changeTags(updated.standardOutput)["n1"])
        #expect(secondTag != firstTag)
        let stale = try await CommandRunner.run(["save", "--db", database, "Note", "--record",
                                           #"{"recordName": "n1", "recordChangeTag": "\#(firstTag)", "title": "Stale"}"#])
        #expect(stale.status == 1)
        #expect(try await Self.titles(database) == ["n1=Second"])

        // --force replaces whatever is stored.
        let forced = try await CommandRunner.run(["save", "--db", database, "Note", "--force", "--record", #"{"recordName": "n1", "title": "Forced"}"#])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try await Self.titles(database) == ["n1=Forced"])
    }

    @Test func savesJSONLinesFromStandardInputAndReportsABadLine() async throws {
        let database = try Self.freshDatabase()
        let saved = try await CommandRunner.run(["save", "--db", database, "Note"], input: """
            {"recordName": "a", "fields": {"title": "A"}}

            {"recordName": "b", "title": "B"}
            """)
        #expect(saved.status == 0, "\(saved.standardError)")
        #expect(try Self.changeTags(saved.standardOutput).keys.sorted() == ["a", "b"])
        let bad = try await CommandRunner.run(["save", "--db", database, "Note"], input: "{\"recordName\": \"c\", \"title\": \"C\"}\n{\"recordName\": \"d\",\n")
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("line 2 of standard input is not valid JSON"))
        // The batch holding the bad line is not saved.
        #expect(try await Self.titles(database) == ["a=A", "b=B"])
        let wrongType = try await CommandRunner.run(["save", "--db", database, "Note", "--record", #"{"recordType": "City", "fields": {}}"#])
        #expect(wrongType.status == 1)
        #expect(wrongType.standardError.contains("is a City record, not Note"))
    }

    @Test func deletesNamedRecordsOrNothingWhenOneIsMissing() async throws {
        let database = try Self.freshDatabase()
        let saved = try await CommandRunner.run(["save", "--db", database, "Note"], input: "{\"recordName\": \"a\", \"title\": \"A\"}\n{\"recordName\": \"b\", \"title\": \"B\"}\n{\"recordName\": \"c\", \"title\": \"C\"}\n")
        #expect(saved.status == 0, "\(saved.standardError)")
        let missing = try await CommandRunner.run(["delete", "--db", database, "Note", "a", "nope"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("no Note record named 'nope' in zone '_defaultZone'; nothing was deleted"))
        #expect(try await Self.titles(database) == ["a=A", "b=B", "c=C"])
        let deleted = try await CommandRunner.run(["delete", "--db", database, "Note", "a", "c"])
        #expect(deleted.status == 0, "\(deleted.standardError)")
        #expect(deleted.standardOutput == "Deleted 2 Note records\n")
        #expect(try await Self.titles(database) == ["b=B"])
    }

    @Test func createsListsAndDeletesZones() async throws {
        let database = try Self.freshDatabase()
        #expect(try await CommandRunner.run(["zones", "create", "Archive", "--db", database]).standardOutput == "Created zone Archive\n")
        let saved = try await CommandRunner.run(["save", "--db", database, "Note", "--record", #"{"recordName": "z", "zone": "Archive", "title": "Z"}"#])
        #expect(saved.status == 0, "\(saved.standardError)")
        #expect(try await CommandRunner.run(["zones", "--db", database]).standardOutput == "_defaultZone\nArchive\n")
        let inZone = try await CommandRunner.run(["find", "--db", database, "Note", "TRUEPREDICATE", "--zone", "Archive", "--output", "jsonl", "--keys", "title"])
        #expect(inZone.standardOutput == #"{"fields":{"title":"Z"},"recordName":"z","recordType":"Note","zone":"Archive"}"# + "\n")
        #expect(try await CommandRunner.run(["zones", "delete", "Archive", "--db", database]).standardOutput == "Deleted zone Archive\n")
        #expect(try await CommandRunner.run(["zones", "list", "--db", database]).standardOutput == "_defaultZone\n")
        let defaultZone = try await CommandRunner.run(["zones", "delete", "_defaultZone", "--db", database])
        #expect(defaultZone.status == 1)
    }
}

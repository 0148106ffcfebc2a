import Foundation
import PredicateLanguage
import Testing
import TestSupport

/// `query find --limit N` prints one batch and a cursor; `--cursor` continues it.
@Suite("query find --limit and --cursor")
struct FindCursorCommandTests {
    /// A fresh database holding 25 `Item` records: `item00` … `item24` with `rank` 0 … 24.
    private static func itemDatabase() async throws -> String {
        let folder = TestFolders.make("find-cursor")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lines = (0..<25).map { index in
            String(format: #"{"id": "item%02d", "rank": %d, "label": "Item %d"}"#, index, index, index)
        }
        let input = folder.appendingPathComponent("items.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let database = folder.appendingPathComponent("items.sqlite").path
        let imported = try await CommandRunner.run(["import", "--db", database, "--type", "Item", "--id", "id", input.path])
        #expect(imported.status == 0, "import failed: \(imported.standardError)")
        return database
    }

    /// The `cursor: TOKEN` line a table-mode find wrote to standard error, if any.
    private static func cursor(inStandardError text: String) -> String? {
        text.split(separator: "\n").last { $0.hasPrefix("cursor: ") }.map { String($0.dropFirst("cursor: ".count)) }
    }

    /// The record names of a JSON-lines find, and the cursor of its last line when it has one.
    private static func jsonLines(_ output: String) throws -> (names: [String], cursor: String?) {
        var names: [String] = []
        var cursor: String?
        for line in output.split(separator: "\n") {
            guard case .object(let object) = try Value(jsonText: String(line)) else {
                Issue.record("not a JSON object: \(line)")
                continue
            }
            if case .string(let token)? = object["cursor"] {
                cursor = token
            } else if case .string(let name)? = object["recordName"] {
                names.append(name)
            }
        }
        return (names, cursor)
    }

    /// The record names of the rows of a table-mode find, in order.
    private static func tableNames(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            line.hasPrefix("item") ? line.split(separator: " ").first.map(String.init) : nil
        }
    }

    private static func names(_ range: Range<Int>) -> [String] {
        range.map { String(format: "item%02d", $0) }
    }

    @Test func tableModePrintsTheCursorOnStandardErrorAndContinues() async throws {
        let database = try await Self.itemDatabase()
        let base = ["find", "--db", database, "Item", "rank >= 5", "--sort", "rank", "--limit", "8", "--keys", "rank"]
        let first = try await CommandRunner.run(base)
        #expect(first.status == 0)
        #expect(Self.tableNames(first.standardOutput) == Self.names(5..<13))
        #expect(first.standardOutput.hasSuffix("(8 records)\n"))
        let cursor = try #require(Self.cursor(inStandardError: first.standardError))
        #expect(!first.standardOutput.contains(cursor))

        let second = try await CommandRunner.run(base + ["--cursor", cursor])
        #expect(second.status == 0)
        #expect(Self.tableNames(second.standardOutput) == Self.names(13..<21))
        let secondCursor = try #require(Self.cursor(inStandardError: second.standardError))

        // The last batch: 20 records match (5 … 24), so 4 remain and no cursor follows.
        let third = try await CommandRunner.run(base + ["--cursor", secondCursor])
        #expect(third.status == 0)
        #expect(Self.tableNames(third.standardOutput) == Self.names(21..<25))
        #expect(Self.cursor(inStandardError: third.standardError) == nil)
    }

    @Test func jsonLinesModeEndsWithACursorLine() async throws {
        let database = try await Self.itemDatabase()
        let base = ["find", "--db", database, "Item", "TRUEPREDICATE", "--sort", "-rank", "--limit", "10", "--output", "jsonl"]
        var collected: [String] = []
        var cursor: String?
        var batches = 0
        repeat {
            let outcome = try await CommandRunner.run(base + (cursor.map { ["--cursor", $0] } ?? []))
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let page = try Self.jsonLines(outcome.standardOutput)
            collected += page.names
            cursor = page.cursor
            batches += 1
        } while cursor != nil && batches < 10
        #expect(batches == 3)
        #expect(collected == Self.names(0..<25).reversed())
    }

    @Test func jsonModeCarriesTheCursorAsAField() async throws {
        let database = try await Self.itemDatabase()
        let base = ["find", "--db", database, "Item", "rank < 12", "--sort", "rank", "--limit", "5", "--output", "json"]
        let first = try await CommandRunner.run(base)
        #expect(first.status == 0)
        guard case .object(let document) = try Value(jsonText: first.standardOutput),
            case .list(let records)? = document["records"], case .string(let cursor)? = document["cursor"]
        else {
            Issue.record("unexpected JSON: \(first.standardOutput)")
            return
        }
        let recordNames = records.compactMap { record -> String? in
            guard case .object(let object) = record, case .string(let name)? = object["recordName"] else { return nil }
            return name
        }
        #expect(recordNames == Self.names(0..<5))
        let rest = try await CommandRunner.run(["find", "--db", database, "Item", "rank < 12", "--sort", "rank", "--cursor", cursor, "--output", "json"])
        #expect(rest.status == 0)
        guard case .object(let restDocument) = try Value(jsonText: rest.standardOutput), case .list(let restRecords)? = restDocument["records"] else {
            Issue.record("unexpected JSON: \(rest.standardOutput)")
            return
        }
        // Without --limit the continuation prints everything that remains, and no cursor.
        #expect(restRecords.count == 7)
        #expect(restDocument["cursor"] == .null)
    }

    @Test func aCursorForAnotherQueryIsRejected() async throws {
        let database = try await Self.itemDatabase()
        let first = try await CommandRunner.run(["find", "--db", database, "Item", "rank >= 5", "--sort", "rank", "--limit", "3"])
        let cursor = try #require(Self.cursor(inStandardError: first.standardError))
        for changed in [
            ["find", "--db", database, "Item", "rank >= 6", "--sort", "rank", "--cursor", cursor],
            ["find", "--db", database, "Item", "rank >= 5", "--sort", "-rank", "--cursor", cursor],
            ["find", "--db", database, "Thing", "rank >= 5", "--sort", "rank", "--cursor", cursor],
        ] {
            let outcome = try await CommandRunner.run(changed)
            #expect(outcome.status == 1)
            #expect(outcome.standardOutput.isEmpty)
            #expect(outcome.standardError.contains("cursor"))
        }
    }

    @Test func aTamperedOrForeignCursorIsRejected() async throws {
        let database = try await Self.itemDatabase()
        let other = try await Self.itemDatabase()
        let arguments = ["Item", "rank >= 5", "--sort", "rank", "--limit", "3"]
        let first = try await CommandRunner.run(["find", "--db", database] + arguments)
        let cursor = try #require(Self.cursor(inStandardError: first.standardError))
        var tampered = Array(cursor)
        let middle = tampered.count / 2
        tampered[middle] = tampered[middle] == "A" ? "B" : "A"
        for bad in [String(tampered), String(cursor.dropLast(4)), "not-a-cursor", ""] {
            let outcome = try await CommandRunner.run(["find", "--db", database] + arguments + ["--cursor", bad])
            #expect(outcome.status == 1, "accepted cursor \(bad)")
            #expect(outcome.standardOutput.isEmpty)
            #expect(outcome.standardError.lowercased().contains("cursor"))
        }
        // A genuine cursor of another store (another signing key) is foreign here.
        let foreign = try await CommandRunner.run(["find", "--db", other] + arguments + ["--cursor", cursor])
        #expect(foreign.status == 1)
        #expect(foreign.standardError.lowercased().contains("cursor"))
        // The genuine cursor still works on its own store.
        let genuine = try await CommandRunner.run(["find", "--db", database] + arguments + ["--cursor", cursor])
        #expect(genuine.status == 0)
        #expect(Self.tableNames(genuine.standardOutput) == Self.names(8..<11))
    }
}

import Foundation
import GRDB
import PredicateLanguage
import Testing
import TestSupport

/// `query export` round-trips with `import`; `find` streams its output, pages a terminal's
/// table, and explains with row estimates; long work draws progress on a terminal only.
@Suite("query export, streaming find, pager and progress")
struct ExportAndStreamingTests {
    /// A fresh folder for a test's files.
    private static func folder() throws -> URL {
        let folder = TestFolders.make("export-streaming")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A database built by `query demo`: 2,000 cities (with lists and locations), 1,000 airports.
    private static func demoDatabase() async throws -> String {
        let path = try folder().appendingPathComponent("demo.sqlite").path
        let built = try await CommandRunner.run(["demo", "--db", path])
        #expect(built.status == 0, "demo failed: \(built.standardError)")
        return path
    }

    /// Runs `query` under `script`, on a pseudo-terminal (standard output and error are then a terminal).
    private static func onTerminal(_ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        let query = CommandRunner.productsFolder.appendingPathComponent("query").path
        let command = ([query] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let outcome = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], environment: environment)
        #expect(outcome.status == 0, "\(arguments) on a terminal failed: \(outcome.standardOutput)")
        return outcome.standardOutput.replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test(arguments: ["jsonl", "csv"])
    func anExportImportsIntoANewStoreAsItWas(format: String) async throws {
        let demo = try await Self.demoDatabase()
        let folder = try Self.folder()
        for recordType in ["City", "Airport"] {
            let exported = try await CommandRunner.run(["export", "--db", demo, recordType, "--output", format])
            #expect(exported.status == 0, "\(exported.standardError)")
            #expect(exported.standardError.isEmpty, "no progress bar off a terminal: \(exported.standardError)")
            let file = folder.appendingPathComponent("\(recordType).\(format)")
            try Data(exported.standardOutput.utf8).write(to: file)
            let copy = folder.appendingPathComponent("\(recordType)-\(format)-copy.sqlite").path
            let imported = try await CommandRunner.run(["import", "--db", copy, "--type", recordType, file.path])
            #expect(imported.status == 0, "\(imported.standardError)")
            // Exported again as JSON lines (typed values), the copy holds exactly the same records.
            let original = try await CommandRunner.run(["export", "--db", demo, recordType])
            let again = try await CommandRunner.run(["export", "--db", copy, recordType])
            #expect(original.standardOutput.split(separator: "\n").count == (recordType == "City" ? 2000 : 1000))
            #expect(again.standardOutput == original.standardOutput)
        }
    }

    @Test func exportsTheMatchingRecordsInOrderAsCSV() async throws {
        let demo = try await Self.demoDatabase()
        let exported = try await CommandRunner.run(["export", "--db", demo, "City", "countrycode == %@ AND population > 500000", "--arg", #""FR""#,
                                              "--sort", "-population", "--output", "csv"])
        #expect(exported.status == 0, "\(exported.standardError)")
        let lines = exported.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == #""recordName","admin1code","alternatenames","countrycode","geonameid","latitude","location","longitude","name","population","timezone""#)
        let names = lines.dropFirst().compactMap { $0.split(separator: ",").first }
        #expect(names == [#""2988507""#, #""2995469""#, #""2996944""#, #""2972315""#])
        #expect(lines[1].contains(#","Paris",2138551,"Europe/Paris""#))
        #expect(lines[1].contains(#""{""$location"":[48.85341,2.3488]}""#))
    }

    @Test func findWithoutALimitStreamsEveryRecordInEachFormat() async throws {
        let demo = try await Self.demoDatabase()
        let lines = try await CommandRunner.run(["find", "--db", demo, "City", "TRUEPREDICATE", "--sort", "name", "--output", "jsonl"])
        #expect(lines.status == 0)
        let exported = try await CommandRunner.run(["export", "--db", demo, "City", "--sort", "name"])
        // 2,000 records: two read batches of 1,000.
        #expect(lines.standardOutput.split(separator: "\n").count == 2000)
        #expect(lines.standardOutput == exported.standardOutput)
        let document = try await CommandRunner.run(["find", "--db", demo, "City", "TRUEPREDICATE", "--sort", "name", "--output", "json"])
        guard case .object(let object) = try Value(jsonText: document.standardOutput), case .list(let records)? = object["records"] else {
            Issue.record("not a JSON document: \(document.standardOutput.prefix(200))")
            return
        }
        #expect(object["cursor"] == .null)
        #expect(records.count == 2000)
        let table = try await CommandRunner.run(["find", "--db", demo, "City", "TRUEPREDICATE", "--sort", "name", "--keys", "name"])
        let rows = table.standardOutput.split(separator: "\n")
        #expect(rows.count == 2 + 2000 + 1)
        #expect(rows.last == "(2000 records)")
    }

    @Test func aTableSizesItsColumnsFromTheFirstBatch() async throws {
        let database = try Self.folder().appendingPathComponent("notes.sqlite").path
        // 1,000 short titles fill the first batch; the 1,001st (last by name) is longer.
        var input = (0..<1000).map { #"{"recordName": "n\#(String(format: "%04d", $0))", "title": "short"}"# }
        input.append(#"{"recordName": "n1000", "title": "a much longer title"}"#)
        let saved = try await CommandRunner.run(["save", "--db", database, "Note"], input: input.joined(separator: "\n") + "\n")
        #expect(saved.status == 0, "\(saved.standardError)")
        let table = try await CommandRunner.run(["find", "--db", database, "Note", "TRUEPREDICATE", "--keys", "title"])
        let rows = table.standardOutput.split(separator: "\n")
        #expect(rows[0] == "recordName  title")
        #expect(rows[1] == "----------  -----")
        #expect(rows[2] == "n0000       short")
        #expect(rows[rows.count - 2] == "n1000       a mu…")
        #expect(rows.last == "(1001 records)")
    }

    @Test func explainPrintsTheEstimatedRowsOfEachStep() async throws {
        let demo = try await Self.demoDatabase()
        let explained = try await CommandRunner.run(["find", "--db", demo, "City", #"countrycode == "FR""#, "--sort", "-population", "--explain"])
        #expect(explained.status == 0, "\(explained.standardError)")
        // SQLite's estimate for k equality terms is the index's statistic after the row count.
        func statistic(_ index: String, equalities: Int) async throws -> Int? {
            let stat = try await DatabaseQueue(path: demo).read { db in
                try String.fetchOne(db, sql: "SELECT stat FROM sqlite_stat1 WHERE idx = ?", arguments: [index])
            }
            return stat?.split(separator: " ").dropFirst(equalities).first.flatMap { Int($0) }
        }
        let expected = try #require(try await statistic("City$countrycode$index", equalities: 2))
        let lines = explained.standardOutput.split(separator: "\n")
        #expect(lines.contains("  SEARCH t USING INDEX City$countrycode$index ($zone=? AND countrycode=?)  (~\(expected) row\(expected == 1 ? "" : "s"))"))
        #expect(lines.contains("  USE TEMP B-TREE FOR ORDER BY"))
        let scan = try await CommandRunner.run(["find", "--db", demo, "City", #"timezone ENDSWITH "Paris""#, "--explain"])
        let zoneRows = try #require(try await statistic("City$$record", equalities: 1))
        #expect(scan.standardOutput.contains("  SEARCH t USING INDEX City$$record ($zone=?)  (~\(zoneRows) rows)"), "\(scan.standardOutput)")
        // A range bound divides by four.
        let range = try await CommandRunner.run(["find", "--db", demo, "City", "population > 1000000", "--sort", "-population", "--explain"])
        let populationRows = try #require(try await statistic("City$population$index", equalities: 1))
        #expect(range.standardOutput.contains("($zone=? AND population>?)  (~\(max(1, Int((Double(populationRows) / 4).rounded()))) rows)"), "\(range.standardOutput)")
    }

    @Test func aTableOnATerminalGoesThroughThePager() async throws {
        let demo = try await Self.demoDatabase()
        let arguments = ["find", "--db", demo, "City", #"countrycode == "FR""#, "--sort", "-population", "--keys", "name", "--limit", "2"]
        let paged = try await Self.onTerminal(arguments, environment: ["PAGER": "sed 's/^/paged: /'"])
        #expect(paged.contains("paged: 2988507     Paris\npaged: 2995469     Marseille\npaged: (2 records)\n"), "\(paged)")
        let unpaged = try await Self.onTerminal(arguments + ["--no-pager"], environment: ["PAGER": "sed 's/^/paged: /'"])
        #expect(unpaged.contains("2988507     Paris\n") && !unpaged.contains("paged:"), "\(unpaged)")
        // A pager that leaves early ends the output, not the command.
        let early = try await Self.onTerminal(["find", "--db", demo, "City", "TRUEPREDICATE", "--keys", "name"], environment: ["PAGER": "head -n 3"])
        #expect(early.split(separator: "\n").count == 3, "\(early)")
    }

    @Test func importAndExportDrawProgressOnATerminal() async throws {
        let demo = try await Self.demoDatabase()
        let exported = try await Self.onTerminal(["export", "--db", demo, "Airport", "--output", "csv"])
        #expect(exported.contains("Exporting Airport  [##############################]  100%  1,000 records"), "\(exported.suffix(300))")
        let folder = try Self.folder()
        let file = folder.appendingPathComponent("airports.csv")
        try Data(try await CommandRunner.run(["export", "--db", demo, "Airport", "--output", "csv"]).standardOutput.utf8).write(to: file)
        let imported = try await Self.onTerminal(["import", "--db", folder.appendingPathComponent("copy.sqlite").path, "--type", "Airport", file.path])
        #expect(imported.contains("Importing Airport  ["), "\(imported)")
        #expect(imported.contains("1,000 records"), "\(imported)")
        #expect(imported.contains("Building the indexes of Airport"), "\(imported)")
    }

    @Test func printsShellCompletionScripts() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try await CommandRunner.run(["--generate-completion-script", shell])
            #expect(script.status == 0)
            for command in ["export", "save", "delete", "zones", "find"] {
                #expect(script.standardOutput.contains(command), "\(shell) completion lacks \(command)")
            }
        }
    }
}

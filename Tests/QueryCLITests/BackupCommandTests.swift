import Foundation
import Testing
import TestSupport

/// `query backup` and `query restore`: a round trip through the tool, and its refusals.
@Suite struct BackupCommandTests {
    @Test func aBackupRestoresIntoANewStoreThatExportsTheSameRecords() async throws {
        let database = try await CommandRunner.importedStore("backup-cli", recordType: "City", jsonLines: [
            #"{"id": "paris", "name": "Paris", "population": 2138551}"#,
            #"{"id": "lyon", "name": "Lyon", "population": 513275}"#,
        ])
        let folder = TestFolders.make("backup-cli-out")
        let backup = folder.appendingPathComponent("nightly").path
        let restored = folder.appendingPathComponent("restored.sqlite").path

        let backedUp = try await CommandRunner.run(["backup", "--db", database, "--output", backup])
        #expect(backedUp.status == 0, "\(backedUp.standardError)")
        #expect(backedUp.standardOutput.hasPrefix("Backed up the sqlite store at history position "))
        #expect(backedUp.standardOutput.hasSuffix(" to \(backup)\n"))

        let restoring = try await CommandRunner.run(["restore", backup, "--db", restored])
        #expect(restoring.status == 0, "\(restoring.standardError)")
        #expect(restoring.standardOutput == "Restored the sqlite store from \(backup) into \(restored)\n")

        let exported = try await CommandRunner.run(["export", "City", "--db", database, "--progress", "none"])
        let exportedAgain = try await CommandRunner.run(["export", "City", "--db", restored, "--progress", "none"])
        #expect(exported.status == 0)
        #expect(exportedAgain.standardOutput == exported.standardOutput)
        #expect(exported.standardOutput.split(separator: "\n").count == 2)

        // The restored store now holds one: a second restore is refused, unless --replace.
        let refused = try await CommandRunner.run(["restore", backup, "--db", restored])
        #expect(refused.status == 1)
        #expect(refused.standardError == "error: Backup refused: \(restored) already holds a store: restore into an empty location, "
            + "or replace it (--replace, replacing: true)\n")
        let replaced = try await CommandRunner.run(["restore", backup, "--db", restored, "--replace"])
        #expect(replaced.status == 0, "\(replaced.standardError)")

        // A backup is written to a new path only.
        let again = try await CommandRunner.run(["backup", "--db", database, "--output", backup])
        #expect(again.status == 1)
        #expect(again.standardError == "error: Backup refused: \(backup) already exists: a backup is written to a new path\n")
    }
}

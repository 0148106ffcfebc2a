import Foundation
import TestSupport
import Testing

/// `query schema apply` of a newer model version on a store built from an older one: it prints
/// the migration's steps, and the records read back under the new names; a change lightweight
/// migration cannot do is refused with the reasons, exit status 1, nothing changed.
@Suite("query schema apply of a newer model version")
struct ModelMigrationCommandTests {
    static let bundle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RecordStoreTests/Schema/Fixtures/Library.xcdatamodeld").path

    @Test("version 1 then the bundle's current version 2: the steps are printed, the records migrated")
    func migrates() async throws {
        let folder = TestFolders.make("model-migration")
        let database = folder.appendingPathComponent("library.sqlite").path
        #expect(try await CommandRunner.run(["schema", "apply", "--db", database, Self.bundle + "/Library.xcdatamodel"]).status == 0)
        let saved = try await CommandRunner.run(
            ["save", "--db", database, "Ebook"], input: #"{"recordName": "e1", "fields": {"name": "Ulysses", "sku": "EBO-0001", "pages": 730}}"# + "\n")
        #expect(saved.status == 0, "\(saved.standardError)")

        // A version whose Book.pages became a string is refused, and nothing changes.
        let retyped = folder.appendingPathComponent("Retyped.xcdatamodel")
        try FileManager.default.createDirectory(at: retyped, withIntermediateDirectories: true)
        let version2 = try String(contentsOfFile: Self.bundle + "/Library 2.xcdatamodel/contents", encoding: .utf8)
        try version2.replacingOccurrences(of: #"name="pages" optional="YES" attributeType="Integer 32""#, with: #"name="pages" optional="YES" attributeType="String""#)
            .write(to: retyped.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let refused = try await CommandRunner.run(["schema", "apply", "--db", database, retyped.path])
        #expect(refused.status == 1)
        #expect(refused.standardError == """
            error: The model version cannot be applied by lightweight migration; nothing was changed:
              Book.pages: its type would change from int64 to string, which lightweight migration cannot do
              DigitalBook.pages: its type would change from int64 to string, which lightweight migration cannot do

            """)

        let applied = try await CommandRunner.run(["schema", "apply", "--db", database, Self.bundle])
        #expect(applied.status == 0, "\(applied.standardError)")
        #expect(applied.standardOutput.hasPrefix("Migrated \(LibraryModelMigration.description)\nApplied 6 record types"))
        let found = try await CommandRunner.run(["find", "--db", database, "DigitalBook", "pages > 500", "--keys", "title,pages,price"])
        #expect(found.standardOutput == """
            recordName  title    pages  price
            ----------  -------  -----  -----
            e1          Ulysses  730    0.0
            (1 record)

            """)
    }
}

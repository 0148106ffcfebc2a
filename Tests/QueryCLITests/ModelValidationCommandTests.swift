import Foundation
import TestSupport
import Testing

/// A Core Data model's validation through `query save`: a record that breaks the model's rules
/// is refused with every failure and Core Data's codes, exit status 1, nothing saved; a valid
/// one is saved with the model's defaults.
@Suite("query save of records a Core Data model validates")
struct ModelValidationCommandTests {
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RecordStoreTests/Schema/Fixtures/Library.xcdatamodeld/Library.xcdatamodel").path

    @Test("a broken record is refused with each failure; a valid one gets the defaults")
    func saveValidates() async throws {
        let database = TestFolders.make("model-validation").appendingPathComponent("library.sqlite").path
        let applied = try await CommandRunner.run(["schema", "apply", "--db", database, Self.model])
        #expect(applied.status == 0, "\(applied.standardError)")
        let refused = try await CommandRunner.run(
            ["save", "--db", database, "Book"], input: #"{"recordName": "b1", "fields": {"name": "A", "sku": "abc", "pages": 9000}}"# + "\n")
        #expect(refused.status == 1)
        #expect(refused.standardError == """
            error: The save broke 3 rules of the schema (1560 NSValidationMultipleErrorsError):
              Book 'b1': name is 1 character long, shorter than the minimum 2 (1670 NSValidationStringTooShortError)
              Book 'b1': sku is "abc", which does not match the pattern "[A-Z]{3}-[0-9]{4}" (1680 NSValidationStringPatternMatchingError)
              Book 'b1': pages is 9000, above the maximum 5000 (1610 NSValidationNumberTooLargeError)

            """)
        let saved = try await CommandRunner.run(
            ["save", "--db", database, "Book"], input: #"{"recordName": "b1", "fields": {"name": "Dune", "sku": "BOO-0001", "pages": 412}}"# + "\n")
        #expect(saved.status == 0, "\(saved.standardError)")
        let found = try await CommandRunner.run(["find", "--db", database, "Book", "TRUEPREDICATE", "--keys", "name,pages,price,inPrint"])
        // Book has a sub-entity (Ebook): the table names each record's type.
        #expect(found.standardOutput == """
            recordName  recordType  name  pages  price  inPrint
            ----------  ----------  ----  -----  -----  -------
            b1          Book        Dune  412    0.0    true
            (1 record)

            """)
    }
}

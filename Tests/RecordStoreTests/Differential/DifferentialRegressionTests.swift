import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@testable import RecordStoreCore
@testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// The differences the differential tests found, each with the exact predicate that showed it.
@Suite("Differential regressions: engines agree where they once differed")
struct DifferentialRegressionTests {
    /// Case seed 12988216423935229159 of run 20240601 (with the generator as first written): SQLite bound the constant "\u{0}" as "" (its
    /// text binding stops at NUL), so `alternatenames CONTAINS "\u0000"` matched every city
    /// whose alternate names hold an empty string.
    @Test func aConstantWithANulCharacterIsNotCutShortInSQL() throws {
        let dataset = try DifferentialDataset.shared.get()
        let formats = [
            #"alternatenames CONTAINS "\u0000""#, #""\u0000" IN alternatenames"#, #"ANY alternatenames == "\u0000""#,
            #"name == "Nowhere\u0000""#, #"name IN {"Nowhere\u0000", "x"}"#, #"name != "Nowhere\u0000" AND countrycode == "ZZ""#,
            #"name BETWEEN {"Nowhere\u0000", "Nowhere\u0000"}"#, #"recordName == "edge-missing\u0000""#,
        ]
        let expectedCounts = [0, 0, 0, 0, 0, 1, 0, 0]
        for (format, expected) in zip(formats, expectedCounts) {
            let predicate = try FormatPredicate(format: format)
            for store in dataset.stores {
                #expect(try store.count(ofType: "City", matching: predicate) == expected, "\(store.engineName): \(format)")
                #expect(try store.records(ofType: "City", matching: predicate).count == expected, "\(store.engineName): \(format)")
            }
        }
    }

    /// SQLite cut stored strings at a NUL character ("a\u{0}b" read back as "a"): every engine
    /// now refuses such strings with the same error.
    @Test func stringsWithANulCharacterAreRefusedByEveryEngine() throws {
        let expected = RecordStoreError.unsupportedValue(
            field: "name", recordType: "Item", reason: "a string holds a NUL character (U+0000), which cannot be stored")
        let expectedInList = RecordStoreError.unsupportedValue(
            field: "tags", recordType: "Item", reason: "a string holds a NUL character (U+0000), which cannot be stored")
        for store in try SmallStores.all() {
            #expect(throws: expected, "\(store.engineName)") {
                try store.save([Record(recordType: "Item", recordID: RecordID(recordName: "one"), fields: ["name": "a\u{0}b"])])
            }
            #expect(throws: expectedInList, "\(store.engineName)") {
                try store.save([Record(recordType: "Item", recordID: RecordID(recordName: "one"), fields: ["tags": ["x", "\u{0}"]])])
            }
            #expect(try store.record(for: RecordID(recordName: "one")) == nil)
        }
    }
}

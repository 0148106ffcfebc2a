import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
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

    /// Issue #27: canonically equivalent strings compare equal under every operator on every engine,
    /// in NFC and NFD spellings, stored (edge-decomposed holds "A\u{30A}ngstro\u{308}m E\u{301}cole") and
    /// as literals; the store agrees with its evaluator (NSString's non-literal comparison).
    @Test func canonicallyEquivalentStringsAgreeEverywhere() throws {
        let dataset = try DifferentialDataset.shared.get()
        let edge = "recordName == 'edge-decomposed' AND "
        let formats = [
            "name == 'A\\u030Angstro\\u0308m E\\u0301cole'", "name == '\u{C5}ngstr\u{F6}m \u{C9}cole'",
            "name BEGINSWITH 'A\\u030Angstro\\u0308m'", "name BEGINSWITH '\u{C5}ngstr\u{F6}m'",
            "name BEGINSWITH[c] '\u{E5}ngstro\\u0308m'", "name BEGINSWITH[cd] 'angstrom'",
            "name ENDSWITH 'E\\u0301cole'", "name ENDSWITH '\u{C9}cole'", "name CONTAINS 'o\\u0308m E\\u0301'",
            "name LIKE 'A\\u030Angstr*'", "name LIKE '\u{C5}ngstr?m *'", "name LIKE[c] '\u{E5}NGSTR*'",
            "name MATCHES '\u{C5}ngstr.m .cole'", "name BETWEEN {'\u{C5}ngstr\u{F6}m', '\u{C5}ngstr\u{F6}n'}",
            "name > 'A\\u030Angstro\\u0308l' AND name < 'A\\u030Angstro\\u0308n'",
            "ANY alternatenames BEGINSWITH 'E\\u0301C'", "ANY alternatenames == '\u{C9}COLE'", "'E\\u0301COLE' IN alternatenames",
            "name IN {'x', 'A\\u030Angstro\\u0308m E\\u0301cole'}",
        ]
        for format in formats {
            let predicate = try FormatPredicate(format: edge + format)
            for store in dataset.stores {
                #expect(try store.count(ofType: "City", matching: predicate) == 1, "\(store.engineName): \(format)")
                #expect(try store.records(ofType: "City", matching: predicate).map(\.recordID.recordName) == ["edge-decomposed"],
                        "\(store.engineName): \(format)")
            }
        }
        // "A\u{30A}" is one character in NFC (Å): it neither begins with "A" nor has a second code point.
        for format in ["name BEGINSWITH 'A'", "name LIKE 'A*'", "name LIKE 'A?ngstr*'", "name < 'A\\u030A'"] {
            let predicate = try FormatPredicate(format: edge + format)
            for store in dataset.stores {
                #expect(try store.count(ofType: "City", matching: predicate) == 0, "\(store.engineName): \(format)")
            }
        }
    }

    /// Issue #27: `LIKE` that is literal text and one trailing `*` selects what `BEGINSWITH` selects, on every
    /// engine and with every option (the cities where "San*" once cost 2.9x "BEGINSWITH").
    @Test func likePrefixesSelectWhatBeginsWithSelects() throws {
        let dataset = try DifferentialDataset.shared.get()
        for (prefix, options) in [("San", ""), ("san", "[c]"), ("sao", "[cd]"), ("S\u{E3}o", ""), ("Sa\\u0303o", "[c]"), ("\u{1F642}", "")] {
            let like = try FormatPredicate(format: "name LIKE\(options) '\(prefix)*'")
            let begins = try FormatPredicate(format: "name BEGINSWITH\(options) '\(prefix)'")
            let sorts = [Sort("name"), Sort("recordName")]
            let expected = try dataset.memory.records(ofType: "City", matching: begins, sorts: sorts).map(\.recordID.recordName)
            for store in dataset.stores {
                #expect(try store.records(ofType: "City", matching: like, sorts: sorts).map(\.recordID.recordName) == expected,
                        "\(store.engineName): \(like)")
            }
        }
    }

    /// Issue #27: integer arithmetic stays integer on every engine (NSExpression's `1/2` is 0).
    @Test func integerArithmeticAgreesOnEveryEngine() throws {
        let dataset = try DifferentialDataset.shared.get()
        for format in ["population / 1000000 == 1", "population / 1000000 * 1000000 == population", "population * 3 / 2 > 3000000",
                       "(population - 18) / 87 * 100 == 0", "population / 1000000.0 > 1.5", "-population / 7 == -2"] {
            let predicate = try FormatPredicate(format: format)
            let sorts = [Sort("population"), Sort("recordName")]
            let expected = try dataset.memory.records(ofType: "City", matching: predicate, sorts: sorts).map(\.recordID.recordName)
            for store in dataset.others.map(\.store) {
                #expect(try store.records(ofType: "City", matching: predicate, sorts: sorts).map(\.recordID.recordName) == expected,
                        "\(store.engineName): \(format)")
            }
        }
        let byZero = try FormatPredicate(format: "population / (population - population) == 1")
        for store in dataset.stores {
            #expect(throws: (any Error).self, "\(store.engineName)") { try store.count(ofType: "City", matching: byZero) }
        }
    }

    /// Issue #27: localized sorts give one sequence on every engine, also over NFC and NFD spellings.
    @Test func localizedSortsAgreeOnEveryEngine() throws {
        let dataset = try DifferentialDataset.shared.get()
        let predicate = try FormatPredicate(format: "recordName BEGINSWITH 'edge-' OR name BEGINSWITH[cd] 'a'")
        for comparison in SortComparison.allCases {
            for ascending in [true, false] {
                let sorts = [Sort("name", ascending: ascending, comparison: comparison)]
                let expected = try dataset.memory.records(ofType: "City", matching: predicate, sorts: sorts).map(\.recordID.recordName)
                for store in dataset.others.map(\.store) {
                    #expect(try store.records(ofType: "City", matching: predicate, sorts: sorts).map(\.recordID.recordName) == expected,
                            "\(store.engineName): \(comparison) \(ascending)")
                }
            }
        }
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite
import TestSupport

/// The localized sort orders come from ICU's root collation and are strict total orders.
@Suite("Unicode collation: the localized orders are strict total orders")
struct UnicodeCollationTests {
    static func ascending(_ collation: UnicodeCollation, _ names: [String]) -> Bool {
        zip(names, names.dropFirst()).allSatisfy { collation.compare($0, $1) == .orderedAscending }
    }

    @Test("Apple's documented examples and the usual orders")
    func knownOrders() {
        // localizedStandardCompare: Finder-like, numbers by value.
        #expect(Self.ascending(.localizedStandard, ["File 1", "File 2", "File 10", "File 100", "file 200"]))
        // Base letters first, then accents, then case (lowercase first, as Apple's localizedCompare).
        #expect(Self.ascending(.localized, ["a", "A", "á", "Á", "b", "résumé", "Résumé", "resumes"]))
        #expect(Self.ascending(.localized, ["resume", "résumé"]))
        // Spaces and punctuation are not ignored: "a b" < "a-b" < "ab".
        #expect(Self.ascending(.localized, ["a b", "a-b", "ab"]))
        #expect(Self.ascending(.localized, ["item 10", "item 9"]))
        // Case-insensitive: case only breaks ties, by code point ("Apple" < "apple").
        #expect(Self.ascending(.localizedCaseInsensitive, ["Apple", "apple", "Banana", "banana", "cherry"]))
        #expect(Self.ascending(.localizedCaseInsensitive, ["aB", "ab", "Ac"]))
        // Composed and decomposed accents collate alike, and the code points of their NFC forms
        // (the same) leave them equal: canonically equivalent spellings are one string (issue #27).
        #expect(UnicodeCollation.localized.compare("e\u{301}", "\u{E9}") == .orderedSame)
        #expect(UnicodeCollation.localized.compare("\u{E9}", "e\u{301}") == .orderedSame)
        #expect(UnicodeCollation.localized.sortKey("e\u{301}") == UnicodeCollation.localized.sortKey("\u{E9}"))
        #expect(UnicodeCollation.localized.compare("e\u{301}", "\u{E8}") == .orderedAscending)
        #expect(UnicodeCollation.localized.compare("same", "same") == .orderedSame)
        #expect(UnicodeCollation.localized.compare("", "a") == .orderedAscending)
    }

    @Test("The names Foundation orders in a cycle get one consistent order")
    func foundationsCycleIsResolved() {
        let names = ["Hoàng Mai", "Hong Kong", "Hồng Lĩnh"]
        for collation in [UnicodeCollation.localized, .localizedCaseInsensitive, .localizedStandard] {
            let sorted = names.sorted { collation.compare($0, $1) == .orderedAscending }
            #expect(Self.ascending(collation, sorted), "\(sorted)")
            #expect(collation.compare(sorted[0], sorted[2]) == .orderedAscending)
        }
        #expect(names.sorted { SortComparison.localized.compare($0, $1) == .orderedAscending } == ["Hoàng Mai", "Hong Kong", "Hồng Lĩnh"])
    }

    /// Every distinct name and ascii name of cities1000 (170,391 cities, 150,041 names).
    static let cityNames: [String] = {
        guard let reader = try? CompressedFileReader(path: TestEngine.datasetPath("cities1000.jsonl.gz")) else { return [] }
        var names: Set<String> = []
        while let line = reader.nextLine() {
            guard case .object(let fields)? = try? Value(jsonBytes: line) else { continue }
            for key in ["name", "asciiname"] { if case .string(let name)? = fields[key] { names.insert(name) } }
        }
        return names.sorted { SortComparison.compareBytes($0, $1) == .orderedAscending }
    }()

    @Test("Transitive over every city name of cities1000: sorting by comparisons equals sorting by sort keys",
          arguments: [SortComparison.localized, .localizedCaseInsensitive, .localizedStandard])
    func totalOrderOverAllCityNames(_ comparison: SortComparison) throws {
        let names = Self.cityNames
        #expect(names.count == 150_041)
        let collation = switch comparison {
        case .localized: UnicodeCollation.localized
        case .localizedCaseInsensitive: UnicodeCollation.localizedCaseInsensitive
        default: UnicodeCollation.localizedStandard
        }
        let byComparison = names.sorted { comparison.compare($0, $1) == .orderedAscending }
        let byKey = names.map { (collation.sortKey($0), $0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
        // A strict total order: each name strictly before the next, and the same sequence as the
        // byte order of the sort keys (a total order by construction).
        #expect(byComparison == byKey)
        #expect(Self.ascending(collation, byComparison))
        // Antisymmetry on pairs far apart in the order.
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let a = names[Int.random(in: 0..<names.count, using: &random)]
            let b = names[Int.random(in: 0..<names.count, using: &random)]
            let forward = collation.compare(a, b)
            let backward = collation.compare(b, a)
            #expect(a == b ? forward == .orderedSame : forward.rawValue == -backward.rawValue, "\(a) vs \(b)")
        }
    }
}

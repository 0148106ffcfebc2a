import Foundation
import Testing
@testable import RecordStore
import TestSupport

/// The printable-ASCII shortcut must give exactly Foundation's localized order.
@Suite("Printable ASCII collation agrees with Foundation")
struct PrintableASCIICollationTests {
    /// The shortcut, when the current locale allows it (English or root, as on Linux).
    static let collation: PrintableASCIICollation? = PrintableASCIICollation.current

    static var appliesHere: Bool {
        let language = Locale.current.language.languageCode?.identifier ?? ""
        return language.isEmpty || language == "en" || language == "root"
    }

    @Test func isAvailableForTheEnglishAndRootLocales() {
        #expect((Self.collation != nil) == Self.appliesHere)
    }

    @Test func knownOrders() throws {
        let collation = try #require(Self.collation)
        #expect(collation.compare("ab", "Ab", ignoringCase: false) == .orderedAscending)
        #expect(collation.compare("aB", "Ab", ignoringCase: false) == .orderedAscending)
        #expect(collation.compare("ab", "AB", ignoringCase: true) == .orderedSame)
        #expect(collation.compare("ab", "a b", ignoringCase: false) == .orderedDescending)
        #expect(collation.compare("a-b", "ab", ignoringCase: false) == .orderedAscending)
        #expect(collation.compare("Zebra", "apple", ignoringCase: false) == .orderedDescending)
        #expect(collation.compare("item 10", "item 9", ignoringCase: false) == .orderedAscending)
        #expect(collation.compare("", "a", ignoringCase: false) == .orderedAscending)
        #expect(collation.compare("", "", ignoringCase: false) == .orderedSame)
    }

    @Test func declinesWhatItCannotDecide() throws {
        let collation = try #require(Self.collation)
        #expect(collation.compare("São Paulo", "Sao Paulo", ignoringCase: false) == nil)
        #expect(collation.compare("a\u{1}b", "ab", ignoringCase: false) == nil)
        #expect(collation.compare("a\tb", "ab", ignoringCase: true) == nil)
        #expect(collation.compare("b", "a\u{7F}", ignoringCase: false) == nil)
        // Through SortComparison, such strings still sort as Foundation says.
        #expect(SortComparison.localized.compare("São Paulo", "Sao Paulo") == "São Paulo".localizedCompare("Sao Paulo"))
    }

    @Test func randomStringsAgreeWithFoundation() throws {
        let collation = try #require(Self.collation)
        // Strings short enough to collide often, over every printable byte, with extra weight on
        // letters of both cases, digits and the punctuation that separates words.
        var random = SplitMix64(seed: 0x5EED_A5C1)
        let favourites = Array("aAbBzZ019 -'.,_".utf8)
        func randomString() -> String {
            let length = Int(random.next() % 7)
            let bytes = (0..<length).map { _ in
                random.next() % 2 == 0 ? favourites[Int(random.next() % UInt64(favourites.count))] : UInt8(0x20 + random.next() % 95)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var disagreements: [String] = []
        for round in 0..<20_000 {
            let left = randomString()
            let right = round % 2 == 0 ? randomString() : String(left.shuffled(using: &random))
            if collation.compare(left, right, ignoringCase: false) != left.localizedCompare(right) {
                disagreements.append("localized: \(left.debugDescription) vs \(right.debugDescription)")
            }
            if collation.compare(left, right, ignoringCase: true) != left.localizedCaseInsensitiveCompare(right) {
                disagreements.append("case-insensitive: \(left.debugDescription) vs \(right.debugDescription)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test func cityNamesAgreeWithFoundation() throws {
        let collation = try #require(Self.collation)
        let memory = try CitiesFixture.stores.get().reference
        let names = try memory.records(ofType: "City", matching: .truePredicate).flatMap { record -> [String] in
            ["name", "asciiname"].compactMap { if case .string(let text)? = record.fields[$0] { text } else { nil } }
        }
        var random = SplitMix64(seed: 42)
        var compared = 0
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let left = names[Int(random.next() % UInt64(names.count))]
            let right = names[Int(random.next() % UInt64(names.count))]
            guard let order = collation.compare(left, right, ignoringCase: false) else { continue }
            compared += 1
            if order != left.localizedCompare(right) { disagreements.append("\(left) vs \(right)") }
            if collation.compare(left, right, ignoringCase: true) != left.localizedCaseInsensitiveCompare(right) {
                disagreements.append("case-insensitive: \(left) vs \(right)")
            }
        }
        #expect(compared > 10_000)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// A record type the store has never had, or a field its type has never had, is an error naming
/// the closest existing names, never an empty result that hides a typo.
@Suite("Unknown record types and fields are errors with suggestions")
struct UnknownNamesTests {
    /// A store of an engine holding two cities and an airport.
    static func store(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.save([
            Record(recordType: "City", recordID: RecordID(recordName: "paris"), fields: ["name": "Paris", "population": 2_145_906]),
            Record(recordType: "City", recordID: RecordID(recordName: "lyon"), fields: ["name": "Lyon", "population": 522_250]),
            Record(recordType: "Airport", recordID: RecordID(recordName: "CDG"), fields: ["name": "Charles de Gaulle"]),
        ])
        return store
    }

    @Test(arguments: TestEngine.allCases)
    func unknownRecordTypes(engine: TestEngine) throws {
        let store = try Self.store(engine)
        #expect(throws: RecordStoreError.unknownRecordType("Cty", suggestions: ["City"])) {
            try store.count(ofType: "Cty", matching: .truePredicate)
        }
        #expect(throws: RecordStoreError.unknownRecordType("city", suggestions: ["City"])) {
            try store.records(ofType: "city", matching: .truePredicate)
        }
        #expect(throws: RecordStoreError.unknownRecordType("Planet", suggestions: [])) {
            try store.fetch(FetchRequest(entityName: "Planet"))
        }
        let query = try RecordQuery(recordType: "Airports", predicate: .truePredicate)
        #expect(throws: RecordStoreError.unknownRecordType("Airports", suggestions: ["Airport"])) {
            try store.firstBatch(matching: query)
        }
    }

    @Test(arguments: TestEngine.allCases)
    func unknownFieldsInPredicatesAndSorts(engine: TestEngine) throws {
        let store = try Self.store(engine)
        #expect(throws: RecordStoreError.unknownField("nosuchfield", recordType: "City", suggestions: [])) {
            try store.count(ofType: "City", matching: FormatPredicate(format: "nosuchfield == 3"))
        }
        #expect(throws: RecordStoreError.unknownField("populaton", recordType: "City", suggestions: ["population"])) {
            try store.records(ofType: "City", matching: FormatPredicate(format: "name == 'Paris' OR populaton > 3"))
        }
        #expect(throws: RecordStoreError.unknownField("nam", recordType: "City", suggestions: ["name"])) {
            try store.records(ofType: "City", matching: .truePredicate, sorts: [Sort("nam", ascending: false)])
        }
        #expect(throws: RecordStoreError.unknownField("Name", recordType: "City", suggestions: ["name"])) {
            try store.count(ofType: "City", matching: FormatPredicate(format: "Name.length > 3"))
        }
        // Metadata names always exist; fields inside SUBQUERY variables are not the type's.
        #expect(try store.count(ofType: "City", matching: FormatPredicate(format: "recordName == 'paris' AND creationDate != nil")) == 1)
        #expect(try store.records(ofType: "City", matching: .truePredicate, sorts: [Sort("modificationDate"), Sort("recordName")]).count == 2)
    }

    @Test func messagesNameTheClosestNames() {
        #expect(RecordStoreError.unknownRecordType("Cty", suggestions: ["City"]).description == "Did not find record type 'Cty'; did you mean 'City'?")
        #expect(RecordStoreError.unknownRecordType("Planet", suggestions: []).description == "Did not find record type 'Planet'")
        #expect(RecordStoreError.unknownField("nam", recordType: "City", suggestions: ["name", "game", "nap"]).description
            == "Field 'nam' does not exist in record type 'City'; did you mean 'name', 'game' or 'nap'?")
        #expect(RecordStoreError.unknownField("x", recordType: "City", suggestions: []).description == "Field 'x' does not exist in record type 'City'")
    }

    @Test func suggestionsAreTheClosestNames() {
        #expect(NameSuggestions.closest(to: "Cty", among: ["City", "Airport"]) == ["City"])
        #expect(NameSuggestions.closest(to: "CITY", among: ["City", "Cities"]) == ["City"])
        #expect(NameSuggestions.closest(to: "populaton", among: ["population", "name", "timezone"]) == ["population"])
        #expect(NameSuggestions.closest(to: "nme", among: ["name", "nmea", "me", "zzz"]) == ["me", "name", "nmea"])
        #expect(NameSuggestions.closest(to: "qqqqqqqq", among: ["name", "population"]) == [])
        #expect(NameSuggestions.closest(to: "timezon", among: ["timezone", "timezones", "zone"]) == ["timezone", "timezones"])
    }

    // Issue #27: `query find City 'nmae == "Paris"'` suggested nothing; a swap of neighbours is one edit
    // (Damerau–Levenshtein), as a user types it.
    @Test func aSwapOfNeighboursIsOneEdit() {
        #expect(NameSuggestions.closest(to: "nmae", among: ["name", "country"]) == ["name"])
        #expect(NameSuggestions.closest(to: "Ctiy", among: ["City", "Airport"]) == ["City"])
        #expect(NameSuggestions.closest(to: "poplutaion", among: ["population"]) == ["population"])
        #expect(NameSuggestions.editDistance(Array("ab"), Array("ba"), atMost: 3) == 1)
        #expect(NameSuggestions.editDistance(Array("ca"), Array("abc"), atMost: 3) == 3)
        #expect(NameSuggestions.editDistance(Array("kitten"), Array("sitting"), atMost: 3) == 3)
        #expect(NameSuggestions.editDistance(Array("abcdef"), Array("badcfe"), atMost: 2) == 3)
    }

    @Test(arguments: TestEngine.allCases)
    func transposedNamesAreSuggested(engine: TestEngine) throws {
        let store = try Self.store(engine)
        #expect(throws: RecordStoreError.unknownField("nmae", recordType: "City", suggestions: ["name"])) {
            try store.count(ofType: "City", matching: FormatPredicate(format: "nmae == 'Paris'"))
        }
        #expect(throws: RecordStoreError.unknownField("nmae", recordType: "City", suggestions: ["name"])) {
            try store.records(ofType: "City", matching: .truePredicate, sorts: [Sort("nmae")])
        }
        #expect(throws: RecordStoreError.unknownRecordType("Ctiy", suggestions: ["City"])) {
            try store.count(ofType: "Ctiy", matching: .truePredicate)
        }
    }
}

import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@testable import RecordStoreCore
@testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// One query of the conformance suite and the number of records it must select.
struct ConformanceCase: Sendable, CustomStringConvertible {
    var format: String
    var arguments: [Value] = []
    var sorts: [Sort] = []
    var limit: Int? = nil
    var expectedCount: Int

    var description: String { "\(format) \(sorts)" }
}

let paris = Location(latitude: 48.8566, longitude: 2.3522)

let conformanceCases: [ConformanceCase] = [
    .init(format: "countrycode == 'FR'", sorts: [Sort("population", ascending: false)], expectedCount: 692),
    .init(format: "countrycode == 'FR' AND population > 500000", sorts: [Sort("population", ascending: false)], expectedCount: 4),
    .init(format: "population >= 1000000 AND population < 2000000", sorts: [Sort("name")], expectedCount: 358),
    .init(format: "population BETWEEN {100000, 120000}", sorts: [Sort("population"), Sort("name")], expectedCount: 1116),
    .init(format: "name == 'Paris'", expectedCount: 2),
    .init(format: "name ==[c] 'paris'", expectedCount: 2),
    .init(format: "name ==[cd] 'sao paulo'", expectedCount: 1),
    .init(format: "name BEGINSWITH 'San '", sorts: [Sort("name")], expectedCount: 355),
    .init(format: "name BEGINSWITH[cd] 'sao'", sorts: [Sort("name", comparison: .caseInsensitive)], expectedCount: 149),
    .init(format: "name ENDSWITH[c] 'burg'", sorts: [Sort("population", ascending: false)], expectedCount: 132),
    .init(format: "name CONTAINS[cd] 'ville'", sorts: [Sort("name", comparison: .localized)], expectedCount: 270),
    .init(format: "name LIKE[c] 'new *'", sorts: [Sort("name")], expectedCount: 54),
    .init(format: "name MATCHES '[A-Z][a-z]+ [A-Z][a-z]+'", sorts: [Sort("name")], limit: 50, expectedCount: 3993),
    .init(format: "countrycode IN {'FR', 'DE', 'IT'}", sorts: [Sort("countrycode"), Sort("population", ascending: false)], expectedCount: 2489),
    .init(format: "NOT (countrycode IN {'US', 'CN', 'IN'})", sorts: [Sort("name")], limit: 200, expectedCount: 24714),
    .init(format: "admin1code == nil", sorts: [Sort("name")], expectedCount: 0),
    .init(format: "admin1code != nil AND countrycode == 'LU'", sorts: [Sort("name")], expectedCount: 3),
    .init(format: "population > 5000000 OR name BEGINSWITH 'Zu'", sorts: [Sort("name")], expectedCount: 77),
    .init(format: "NOT (population > 20000) AND countrycode == 'IS'", sorts: [Sort("name")], expectedCount: 3),
    .init(format: "(countrycode == 'CH' OR countrycode == 'AT') AND NOT name BEGINSWITH 'S'", sorts: [Sort("population")], expectedCount: 141),
    .init(format: "ANY alternatenames == 'Lutetia'", expectedCount: 1),
    .init(format: "ANY alternatenames BEGINSWITH 'Münch'", expectedCount: 1),
    .init(format: "alternatenames CONTAINS 'Londres'", sorts: [Sort("name")], expectedCount: 1),
    .init(format: "'Wien' IN alternatenames", expectedCount: 1),
    .init(format: "NONE alternatenames BEGINSWITH 'A' AND countrycode == 'NZ'", sorts: [Sort("name")], expectedCount: 52),
    .init(format: "self CONTAINS 'springfield'", sorts: [Sort("countrycode"), Sort("name")], expectedCount: 12),
    .init(format: "self CONTAINS 'port royal'", sorts: [Sort("name")], expectedCount: 104),
    .init(format: "self CONTAINS 'san' AND self CONTAINS 'jose'", sorts: [Sort("name")], expectedCount: 27),
    .init(format: "distanceToLocation:fromLocation:(location, %@) < 50000", arguments: [.location(paris)], sorts: [Sort.distance(from: paris, key: "location")], expectedCount: 251),
    .init(format: "distanceToLocation:fromLocation:(location, %@) <= 200000 AND population > 100000", arguments: [.location(Location(latitude: -33.87, longitude: 151.21))], sorts: [Sort("name")], expectedCount: 4),
    .init(format: "distanceToLocation:fromLocation:(location, %@) < 300000", arguments: [.location(Location(latitude: -18.14, longitude: 178.44))], sorts: [Sort("name")], expectedCount: 7),
    .init(format: "recordName BEGINSWITH '29'", sorts: [Sort("recordName", ascending: false)], limit: 30, expectedCount: 945),
    .init(format: "recordName == '2988507'", expectedCount: 1),
    .init(format: "creationDate != nil AND countrycode == 'MC'", expectedCount: 2),
    .init(format: "modificationDate > %@", arguments: [.date(Date(timeIntervalSince1970: 0))], sorts: [Sort("name")], limit: 10, expectedCount: 34006),
    .init(format: "recordChangeTag != nil AND population > 10000000", sorts: [Sort("population", ascending: false)], expectedCount: 20),
    .init(format: "population * 2 > 20000000", sorts: [Sort("name")], expectedCount: 20),
    .init(format: "population > 1000000", sorts: [Sort("name", comparison: .localizedCaseInsensitive)], expectedCount: 562),
    .init(format: "population > 1000000", sorts: [Sort("name", comparison: .localizedStandard)], expectedCount: 562),
    .init(format: "population > 1000000", sorts: [Sort("timezone", ascending: false), Sort("name", comparison: .caseInsensitive)], expectedCount: 562),
    .init(format: "latitude > 60.5 AND longitude < 0", sorts: [Sort("latitude", ascending: false)], expectedCount: 14),
    .init(format: "latitude BETWEEN {-1, 1}", sorts: [Sort("longitude")], expectedCount: 268),
    .init(format: "timezone BEGINSWITH 'Europe/' AND population > 800000", sorts: [Sort("timezone"), Sort("name")], expectedCount: 58),
    .init(format: "population == 'many'", expectedCount: 0),
    .init(format: "missingField == nil AND countrycode == 'AD'", sorts: [Sort("missingField"), Sort("name")], expectedCount: 2),
    .init(format: "alternatenames.@count > 200", sorts: [Sort("name")], expectedCount: 1),
    .init(format: "SUBQUERY(alternatenames, $n, $n BEGINSWITH 'Bei').@count > 0", sorts: [Sort("name")], expectedCount: 43),
    .init(format: "name > 'Zw'", sorts: [Sort("name")], expectedCount: 518),
    .init(format: "name <[c] 'ab'", sorts: [Sort("name")], expectedCount: 20),
    // Issue #27: a LIKE prefix selects what BEGINSWITH selects; integer arithmetic stays integer (NSExpression's
    // 1/2 is 0); a literal in NFD finds what its NFC spelling finds; localized sorts descending.
    .init(format: "name LIKE 'San *'", sorts: [Sort("name")], expectedCount: 355),
    .init(format: "name LIKE[cd] 'sa\\u0303o*'", sorts: [Sort("name", comparison: .caseInsensitive)], expectedCount: 149),
    .init(format: "population / 1000000 == 1", sorts: [Sort("population"), Sort("name")], expectedCount: 358),
    .init(format: "name ==[cd] 'sa\\u0303o paulo'", expectedCount: 1),
    .init(format: "population > 1000000", sorts: [Sort("name", ascending: false, comparison: .localized)], limit: 40, expectedCount: 562),
    .init(format: "TRUEPREDICATE", sorts: [Sort("population", ascending: false)], limit: 25, expectedCount: 34006),
    .init(format: "FALSEPREDICATE", expectedCount: 0),
]

@Suite("Conformance: every engine agrees on cities15000")
struct ConformanceTests {
    @Test("Every engine loads all 34,006 cities")
    func loaded() throws {
        for (engine, store) in try CitiesFixture.stores.get().all {
            #expect(try store.count(ofType: "City", matching: .truePredicate) == 34_006, "\(engine)")
        }
    }

    @Test("Same records in the same order", arguments: conformanceCases)
    func sameResults(_ testCase: ConformanceCase) throws {
        let stores = try CitiesFixture.stores.get()
        let predicate = try FormatPredicate(format: testCase.format, argumentArray: testCase.arguments)
        let fromReference = try stores.reference.records(ofType: "City", matching: predicate, sorts: testCase.sorts, limit: testCase.limit)
            .map(\.recordID.recordName)
        for (engine, store) in stores.all {
            let names = try store.records(ofType: "City", matching: predicate, sorts: testCase.sorts, limit: testCase.limit)
                .map(\.recordID.recordName)
            #expect(names == fromReference, "\(engine)")
            #expect(try store.count(ofType: "City", matching: predicate) == testCase.expectedCount, "\(engine)")
        }
    }
}

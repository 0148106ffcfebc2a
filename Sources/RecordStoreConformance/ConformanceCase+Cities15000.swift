import Foundation
import PredicateLanguage
import RecordStoreCore

extension ConformanceCase {
    /// Paris, the origin of the distance cases.
    static let paris = Location(latitude: 48.8566, longitude: 2.3522)

    /// The cases over `cities15000` (34,006 cities, the repository's `Datasets/cities15000.jsonl.gz`,
    /// loaded by ``EngineConformance/loadCities(from:into:)``): every operator and modifier, string
    /// comparisons in every option, lists, full-text search, distances, metadata, arithmetic, and
    /// every sort comparison.
    ///
    /// ```swift
    /// for testCase in ConformanceCase.cities15000 { ... }
    /// ```
    public static let cities15000: [ConformanceCase] = [
        ConformanceCase(format: "countrycode == 'FR'", sorts: [Sort("population", ascending: false)], expectedCount: 692),
        ConformanceCase(format: "countrycode == 'FR' AND population > 500000", sorts: [Sort("population", ascending: false)], expectedCount: 4),
        ConformanceCase(format: "population >= 1000000 AND population < 2000000", sorts: [Sort("name")], expectedCount: 358),
        ConformanceCase(format: "population BETWEEN {100000, 120000}", sorts: [Sort("population"), Sort("name")], expectedCount: 1116),
        ConformanceCase(format: "name == 'Paris'", expectedCount: 2),
        ConformanceCase(format: "name ==[c] 'paris'", expectedCount: 2),
        ConformanceCase(format: "name ==[cd] 'sao paulo'", expectedCount: 1),
        ConformanceCase(format: "name BEGINSWITH 'San '", sorts: [Sort("name")], expectedCount: 355),
        ConformanceCase(format: "name BEGINSWITH[cd] 'sao'", sorts: [Sort("name", comparison: .caseInsensitive)], expectedCount: 149),
        ConformanceCase(format: "name ENDSWITH[c] 'burg'", sorts: [Sort("population", ascending: false)], expectedCount: 132),
        ConformanceCase(format: "name CONTAINS[cd] 'ville'", sorts: [Sort("name", comparison: .localized)], expectedCount: 270),
        ConformanceCase(format: "name LIKE[c] 'new *'", sorts: [Sort("name")], expectedCount: 54),
        ConformanceCase(format: "name MATCHES '[A-Z][a-z]+ [A-Z][a-z]+'", sorts: [Sort("name")], limit: 50, expectedCount: 3993),
        ConformanceCase(format: "countrycode IN {'FR', 'DE', 'IT'}", sorts: [Sort("countrycode"), Sort("population", ascending: false)], expectedCount: 2489),
        ConformanceCase(format: "NOT (countrycode IN {'US', 'CN', 'IN'})", sorts: [Sort("name")], limit: 200, expectedCount: 24714),
        ConformanceCase(format: "admin1code == nil", sorts: [Sort("name")], expectedCount: 0),
        ConformanceCase(format: "admin1code != nil AND countrycode == 'LU'", sorts: [Sort("name")], expectedCount: 3),
        ConformanceCase(format: "population > 5000000 OR name BEGINSWITH 'Zu'", sorts: [Sort("name")], expectedCount: 77),
        ConformanceCase(format: "NOT (population > 20000) AND countrycode == 'IS'", sorts: [Sort("name")], expectedCount: 3),
        ConformanceCase(format: "(countrycode == 'CH' OR countrycode == 'AT') AND NOT name BEGINSWITH 'S'", sorts: [Sort("population")], expectedCount: 141),
        ConformanceCase(format: "ANY alternatenames == 'Lutetia'", expectedCount: 1),
        ConformanceCase(format: "ANY alternatenames BEGINSWITH 'Münch'", expectedCount: 1),
        ConformanceCase(format: "alternatenames CONTAINS 'Londres'", sorts: [Sort("name")], expectedCount: 1),
        ConformanceCase(format: "'Wien' IN alternatenames", expectedCount: 1),
        ConformanceCase(format: "NONE alternatenames BEGINSWITH 'A' AND countrycode == 'NZ'", sorts: [Sort("name")], expectedCount: 52),
        ConformanceCase(format: "self CONTAINS 'springfield'", sorts: [Sort("countrycode"), Sort("name")], expectedCount: 12),
        ConformanceCase(format: "self CONTAINS 'port royal'", sorts: [Sort("name")], expectedCount: 104),
        ConformanceCase(format: "self CONTAINS 'san' AND self CONTAINS 'jose'", sorts: [Sort("name")], expectedCount: 27),
        ConformanceCase(format: "distanceToLocation:fromLocation:(location, %@) < 50000", arguments: [.location(paris)], sorts: [Sort.distance(from: paris, key: "location")], expectedCount: 251),
        ConformanceCase(format: "distanceToLocation:fromLocation:(location, %@) <= 200000 AND population > 100000", arguments: [.location(Location(latitude: -33.87, longitude: 151.21))], sorts: [Sort("name")], expectedCount: 4),
        ConformanceCase(format: "distanceToLocation:fromLocation:(location, %@) < 300000", arguments: [.location(Location(latitude: -18.14, longitude: 178.44))], sorts: [Sort("name")], expectedCount: 7),
        ConformanceCase(format: "recordName BEGINSWITH '29'", sorts: [Sort("recordName", ascending: false)], limit: 30, expectedCount: 945),
        ConformanceCase(format: "recordName == '2988507'", expectedCount: 1),
        ConformanceCase(format: "creationDate != nil AND countrycode == 'MC'", expectedCount: 2),
        ConformanceCase(format: "modificationDate > %@", arguments: [.date(Date(timeIntervalSince1970: 0))], sorts: [Sort("name")], limit: 10, expectedCount: 34006),
        ConformanceCase(format: "recordChangeTag != nil AND population > 10000000", sorts: [Sort("population", ascending: false)], expectedCount: 20),
        ConformanceCase(format: "population * 2 > 20000000", sorts: [Sort("name")], expectedCount: 20),
        ConformanceCase(format: "population > 1000000", sorts: [Sort("name", comparison: .localizedCaseInsensitive)], expectedCount: 562),
        ConformanceCase(format: "population > 1000000", sorts: [Sort("name", comparison: .localizedStandard)], expectedCount: 562),
        ConformanceCase(format: "population > 1000000", sorts: [Sort("timezone", ascending: false), Sort("name", comparison: .caseInsensitive)], expectedCount: 562),
        ConformanceCase(format: "latitude > 60.5 AND longitude < 0", sorts: [Sort("latitude", ascending: false)], expectedCount: 14),
        ConformanceCase(format: "latitude BETWEEN {-1, 1}", sorts: [Sort("longitude")], expectedCount: 268),
        ConformanceCase(format: "timezone BEGINSWITH 'Europe/' AND population > 800000", sorts: [Sort("timezone"), Sort("name")], expectedCount: 58),
        ConformanceCase(format: "population == 'many'", expectedCount: 0),
        ConformanceCase(format: "missingField == nil AND countrycode == 'AD'", sorts: [Sort("missingField"), Sort("name")], expectedCount: 2),
        ConformanceCase(format: "alternatenames.@count > 200", sorts: [Sort("name")], expectedCount: 1),
        ConformanceCase(format: "SUBQUERY(alternatenames, $n, $n BEGINSWITH 'Bei').@count > 0", sorts: [Sort("name")], expectedCount: 43),
        ConformanceCase(format: "name > 'Zw'", sorts: [Sort("name")], expectedCount: 518),
        ConformanceCase(format: "name <[c] 'ab'", sorts: [Sort("name")], expectedCount: 20),
        // Issue #27: a LIKE prefix selects what BEGINSWITH selects; integer arithmetic stays integer (NSExpression's
        // 1/2 is 0); a literal in NFD finds what its NFC spelling finds; localized sorts descending.
        ConformanceCase(format: "name LIKE 'San *'", sorts: [Sort("name")], expectedCount: 355),
        ConformanceCase(format: "name LIKE[cd] 'sa\\u0303o*'", sorts: [Sort("name", comparison: .caseInsensitive)], expectedCount: 149),
        ConformanceCase(format: "population / 1000000 == 1", sorts: [Sort("population"), Sort("name")], expectedCount: 358),
        ConformanceCase(format: "name ==[cd] 'sa\\u0303o paulo'", expectedCount: 1),
        ConformanceCase(format: "population > 1000000", sorts: [Sort("name", ascending: false, comparison: .localized)], limit: 40, expectedCount: 562),
        ConformanceCase(format: "TRUEPREDICATE", sorts: [Sort("population", ascending: false)], limit: 25, expectedCount: 34006),
        ConformanceCase(format: "FALSEPREDICATE", expectedCount: 0),
    ]
}

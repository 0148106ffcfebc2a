import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

private let goldenParis = Location(latitude: 48.8566, longitude: 2.3522)

/// The golden cases: each query with the plan the SQLite dialect makes of it, as
/// ``PlannerGoldenCase/render(_:)`` prints it.
let plannerGoldenCases: [PlannerGoldenCase] = [
    // Comparisons of one field with a constant: exact in SQL.
    .init(format: "population > 100000", expected: #"""
        WHERE t."$zone" = ? AND (t."population" IS NOT NULL AND t."population" > ?)
          ARGUMENTS "", 100000
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "population == 5", expected: #"""
        WHERE t."$zone" = ? AND (t."population" IS NOT NULL AND t."population" = ?)
          ARGUMENTS "", 5
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "population != 5", expected: #"""
        WHERE t."$zone" = ? AND (t."population" IS NULL OR t."population" <> ?)
          ARGUMENTS "", 5
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "population <= 5.5", expected: #"""
        WHERE t."$zone" = ? AND (t."population" IS NOT NULL AND t."population" <= ?)
          ARGUMENTS "", 5
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "elevation >= 10", expected: #"""
        WHERE t."$zone" = ? AND (t."elevation" IS NOT NULL AND t."elevation" >= ?)
          ARGUMENTS "", 10
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "capital == YES", expected: #"""
        WHERE t."$zone" = ? AND (t."capital" IS NOT NULL AND t."capital" = ?)
          ARGUMENTS "", 1
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "capital == NO", expected: #"""
        WHERE t."$zone" = ? AND (t."capital" IS NOT NULL AND t."capital" = ?)
          ARGUMENTS "", 0
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "founded < %@", arguments: [.date(Date(timeIntervalSince1970: 0))], expected: #"""
        WHERE t."$zone" = ? AND (t."founded" IS NOT NULL AND t."founded" < ?)
          ARGUMENTS "", -978307200.0
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name == 'Paris'", expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND t."name" = ?)
          ARGUMENTS "", "Paris"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name < 'M'", expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND t."name" < ?)
          ARGUMENTS "", "M"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name BETWEEN {'A', 'C'}", expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND t."name" BETWEEN ? AND ?)
          ARGUMENTS "", "A", "C"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "population BETWEEN {1000, 2000}", expected: #"""
        WHERE t."$zone" = ? AND (t."population" IS NOT NULL AND t."population" BETWEEN ? AND ?)
          ARGUMENTS "", 1000, 2000
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name IN {'Paris', 'Lyon'}", expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND t."name" IN (?, ?))
          ARGUMENTS "", "Paris", "Lyon"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "population IN {1, 2, 3}", expected: #"""
        WHERE t."$zone" = ? AND (t."population" IS NOT NULL AND t."population" IN (?, ?, ?))
          ARGUMENTS "", 1, 2, 3
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name == nil", expected: #"""
        WHERE t."$zone" = ? AND t."name" IS NULL
          ARGUMENTS ""
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name != nil", expected: #"""
        WHERE t."$zone" = ? AND t."name" IS NOT NULL
          ARGUMENTS ""
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "recordName == 'paris'", expected: #"""
        WHERE t."$zone" = ? AND (t."$recordName" IS NOT NULL AND t."$recordName" = ?)
          ARGUMENTS "", "paris"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "creationDate > %@", arguments: [.date(Date(timeIntervalSince1970: 1_000_000))], expected: #"""
        WHERE t."$zone" = ? AND (t."$creationDate" IS NOT NULL AND t."$creationDate" > ?)
          ARGUMENTS "", -977307200.0
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "missing == 3", expected: #"""
        WHERE t."$zone" = ? AND 0
          ARGUMENTS ""
        ORDER BY t."$recordName" ASC
        """#),
    // Prefixes are byte ranges on the field; [c] and [cd] use the folded columns (name$c,
    // name$cd), with or without callbacks. LIKE is GLOB on the same column inside its literal prefix's range
    // (a prefix and one trailing `*` is exactly BEGINSWITH).
    .init(format: "name BEGINSWITH 'Par'", expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND t."name" >= ? AND t."name" < ?)
          ARGUMENTS "", "Par", "Pas"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name BEGINSWITH 'Par'", callbacks: false, expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND t."name" >= ? AND t."name" < ?)
          ARGUMENTS "", "Par", "Pas"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name ==[c] 'paris'", expected: #"""
        WHERE t."$zone" = ? AND (t."name$c" IS NOT NULL AND t."name$c" = ?)
          ARGUMENTS "", "paris"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name ==[c] 'paris'", callbacks: false, expected: #"""
        WHERE t."$zone" = ? AND (t."name$c" IS NOT NULL AND t."name$c" = ?)
          ARGUMENTS "", "paris"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name BEGINSWITH[cd] 'São'", expected: #"""
        WHERE t."$zone" = ? AND (t."name$cd" IS NOT NULL AND t."name$cd" >= ? AND t."name$cd" < ?)
          ARGUMENTS "", "sao", "sap"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name IN[cd] {'Zürich', 'GENÈVE'}", expected: #"""
        WHERE t."$zone" = ? AND (t."name$cd" IS NOT NULL AND t."name$cd" IN (?, ?))
          ARGUMENTS "", "zurich", "geneve"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name !=[c] 'Paris'", expected: #"""
        WHERE t."$zone" = ? AND (t."name$c" IS NULL OR t."name$c" <> ?)
          ARGUMENTS "", "paris"
        ORDER BY t."$recordName" ASC
        """#),
    // Issue #27 item 7: a LIKE whose meaning SQL computes exactly on the (folded) column stays in SQL:
    // GLOB matches code points, as the evaluator's LIKE does, with `*`, `?` and `[` escaped as sets.
    .init(format: "name LIKE 'P*s'", expected: #"""
        WHERE t."$zone" = ? AND ((t."name" IS NOT NULL AND t."name" >= ? AND t."name" < ?) AND t."name" GLOB ?)
          ARGUMENTS "", "P", "Q", "P*s"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name LIKE[cd] '*SA\\u0303O?p*'", callbacks: false, expected: #"""
        WHERE t."$zone" = ? AND (t."name$cd" IS NOT NULL AND t."name$cd" GLOB ?)
          ARGUMENTS "", "*sao?p*"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: #"name LIKE 'a\\*[b]?\\?c*'"#, expected: #"""
        WHERE t."$zone" = ? AND ((t."name" IS NOT NULL AND t."name" >= ? AND t."name" < ?) AND t."name" GLOB ?)
          ARGUMENTS "", "a*[b]", "a*[b^", "a[*][[]b]?[?]c*"
        ORDER BY t."$recordName" ASC
        """#),
    // Issue #27: literal text and one trailing `*` is BEGINSWITH that text, exactly: no residual.
    .init(format: "name LIKE[c] 'SAN*'", callbacks: false, expected: #"""
        WHERE t."$zone" = ? AND (t."name$c" IS NOT NULL AND t."name$c" >= ? AND t."name$c" < ?)
          ARGUMENTS "", "san", "sao"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name LIKE 'Par*'", expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND t."name" >= ? AND t."name" < ?)
          ARGUMENTS "", "Par", "Pas"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name LIKE[cd] 'Sa\\u0303o*'", expected: #"""
        WHERE t."$zone" = ? AND (t."name$cd" IS NOT NULL AND t."name$cd" >= ? AND t."name$cd" < ?)
          ARGUMENTS "", "sao", "sap"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name LIKE[c] 'PARIS'", expected: #"""
        WHERE t."$zone" = ? AND (t."name$c" IS NOT NULL AND t."name$c" = ?)
          ARGUMENTS "", "paris"
        ORDER BY t."$recordName" ASC
        """#),
    // Issue #27: a literal in NFD is compared in NFC, as the evaluator compares it (stored strings are NFC).
    .init(format: "name BEGINSWITH 'Sa\\u0303o'", expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND t."name" >= ? AND t."name" < ?)
          ARGUMENTS "", "São", "Sãp"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name < 'Sa\\u0303o'", expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND t."name" < ?)
          ARGUMENTS "", "São"
        ORDER BY t."$recordName" ASC
        """#),
    // [d] alone and [n] have no folded column: the callback decides, on the value as the client stored it.
    .init(format: "name ==[d] 'Paris'", expected: #"""
        WHERE t."$zone" = ? AND query_test(?, 1, COALESCE(t."name$raw", t."name"))
          ARGUMENTS "", 1
        ORDER BY t."$recordName" ASC
        """#),
    // Substrings are native tests (every row, no callback), on the folded column with options.
    .init(format: "name CONTAINS[cd] 'São'", callbacks: false, expected: #"""
        WHERE t."$zone" = ? AND (t."name$cd" IS NOT NULL AND instr(t."name$cd", ?) > 0)
          ARGUMENTS "", "sao"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name ENDSWITH 'ville'", expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND substr(t."name", -?) = ?)
          ARGUMENTS "", 5, "ville"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name CONTAINS[d] '\u{301}'", expected: #"""
        WHERE t."$zone" = ? AND query_test(?, 1, COALESCE(t."name$raw", t."name"))
          ARGUMENTS "", 1
        ORDER BY t."$recordName" ASC
        """#),
    // A lone accent is not removed by [cd] folding (nothing to attach to): the same byte test.
    .init(format: "name CONTAINS[cd] '\u{301}'", expected: #"""
        WHERE t."$zone" = ? AND (t."name$cd" IS NOT NULL AND instr(t."name$cd", ?) > 0)
          ARGUMENTS "", "\#u{301}"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name MATCHES '[A-Z].*'", expected: #"""
        WHERE t."$zone" = ? AND query_test(?, 1, COALESCE(t."name$raw", t."name"))
          ARGUMENTS "", 1
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "name < 'M'", callbacks: false, expected: #"""
        WHERE t."$zone" = ? AND (t."name" IS NOT NULL AND t."name" < ?)
          ARGUMENTS "", "M"
        ORDER BY t."$recordName" ASC
        """#),
    // Lists through the list table.
    .init(format: "'x' IN tags", expected: #"""
        WHERE t."$zone" = ? AND t.rowid IN (SELECT l.record FROM "City$list" AS l WHERE l.field = ? AND l.value = ?)
          ARGUMENTS "", "tags", "x"
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "ANY codes > 3", expected: #"""
        WHERE t."$zone" = ? AND EXISTS (SELECT 1 FROM "City$list" AS l WHERE l.record = t.rowid AND l.field = ? AND query_test(?, 2, l.value))
          ARGUMENTS "", "codes", 1
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "tags.@count > 2", expected: #"""
        WHERE t."$zone" = ?
          ARGUMENTS ""
        ORDER BY t."$recordName" ASC
        RESIDUAL tags.@count > 2
        """#),
    // Full text and radius searches.
    .init(format: "self CONTAINS 'saint'", expected: #"""
        WHERE t."$zone" = ? AND t.rowid IN (SELECT rowid FROM "City$fts" WHERE "City$fts" MATCH ?)
          ARGUMENTS "", "\"saint\""
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "distanceToLocation:fromLocation:(location, %@) < 50000", arguments: [.location(goldenParis)], expected: #"""
        WHERE t."$zone" = ? AND t.rowid IN (SELECT rowid FROM "City" WHERE CAST(("location$latitude" + 90) * 2 AS INTEGER) IN (?, ?, ?) AND "location$longitude" BETWEEN ? AND ? AND "location$latitude" BETWEEN ? AND ?) AND COALESCE(query_distance(t."location$latitude", t."location$longitude", ?, ?) < ?, 0)
          ARGUMENTS "", 276, 277, 278, 1.66797698277054, 3.0364230172294597, 48.40639015795587, 49.30680984204413, 48.8566, 2.3522, 50000.0
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "distanceToLocation:fromLocation:(location, %@) < 50000", arguments: [.location(goldenParis)], callbacks: false, expected: #"""
        WHERE t."$zone" = ? AND t.rowid IN (SELECT rowid FROM "City" WHERE CAST(("location$latitude" + 90) * 2 AS INTEGER) IN (?, ?, ?) AND "location$longitude" BETWEEN ? AND ? AND "location$latitude" BETWEEN ? AND ?)
          ARGUMENTS "", 276, 277, 278, 1.66797698277054, 3.0364230172294597, 48.40639015795587, 49.30680984204413
        ORDER BY t."$recordName" ASC
        RESIDUAL distanceToLocation:fromLocation:(location, CAST({48.8566, 2.3522}, "CLLocation")) < 50000
        """#),
    // AND, OR, NOT, and what goes to the residual.
    .init(format: "population > 1000 AND capital == YES", expected: #"""
        WHERE t."$zone" = ? AND ((t."population" IS NOT NULL AND t."population" > ?) AND (t."capital" IS NOT NULL AND t."capital" = ?))
          ARGUMENTS "", 1000, 1
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "population > 1000 OR elevation < 0", expected: #"""
        WHERE t."$zone" = ? AND ((t."population" IS NOT NULL AND t."population" > ?) OR (t."elevation" IS NOT NULL AND t."elevation" < ?))
          ARGUMENTS "", 1000, 0
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "NOT (population > 1000)", expected: #"""
        WHERE t."$zone" = ? AND NOT ((t."population" IS NOT NULL AND t."population" > ?))
          ARGUMENTS "", 1000
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "population > elevation", expected: #"""
        WHERE t."$zone" = ?
          ARGUMENTS ""
        ORDER BY t."$recordName" ASC
        RESIDUAL population > elevation
        """#),
    .init(format: "population > 1000 AND population > elevation", expected: #"""
        WHERE t."$zone" = ? AND ((t."population" IS NOT NULL AND t."population" > ?))
          ARGUMENTS "", 1000
        ORDER BY t."$recordName" ASC
        RESIDUAL population > elevation
        """#),
    .init(format: "SUBQUERY(tags, $t, $t BEGINSWITH 'a').@count > 0", expected: #"""
        WHERE t."$zone" = ?
          ARGUMENTS ""
        ORDER BY t."$recordName" ASC
        RESIDUAL SUBQUERY(tags, $t, $t BEGINSWITH "a").@count > 0
        """#),
    .init(format: "TRUEPREDICATE", expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY t."$recordName" ASC
        """#),
    .init(format: "FALSEPREDICATE", expected: #"""
        WHERE t."$zone" = ? AND 0
          ARGUMENTS ""
        ORDER BY t."$recordName" ASC
        """#),
    // Sorts: nulls first ascending, explicit; localized orders by collation or in Swift.
    .init(format: "TRUEPREDICATE", sorts: [Sort("population", ascending: false)], expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY t."population" DESC, t."$recordName" ASC
        """#),
    .init(format: "TRUEPREDICATE", sorts: [Sort("name"), Sort("population", ascending: false)], expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY t."name" ASC, t."population" DESC, t."$recordName" ASC
        """#),
    .init(format: "TRUEPREDICATE", sorts: [Sort("name", comparison: .localized)], expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY t."name$localized" ASC, t."$recordName" ASC
        """#),
    .init(format: "TRUEPREDICATE", sorts: [Sort("name", comparison: .localizedStandard)], callbacks: false, expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY t."name$localizedStandard" ASC, t."$recordName" ASC
        """#),
    .init(format: "TRUEPREDICATE", sorts: [Sort("name", comparison: .caseInsensitive)], expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY t."name$c" ASC, t."$recordName" ASC
        """#),
    // Metadata has no derived columns: the collation, or Swift without callbacks.
    .init(format: "TRUEPREDICATE", sorts: [Sort("recordName", comparison: .localized)], expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY t."$recordName" COLLATE query_localized ASC, t."$recordName" ASC
        """#),
    .init(format: "TRUEPREDICATE", sorts: [Sort("recordName", comparison: .localized)], callbacks: false, expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY (sorted in Swift)
        """#),
    .init(format: "TRUEPREDICATE", sorts: [Sort.distance(from: goldenParis, key: "location")], expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY query_distance(t."location$latitude", t."location$longitude", ?, ?) ASC, t."$recordName" ASC
          ARGUMENTS 48.8566, 2.3522
        """#),
    // Keyset segments after a page.
    .init(format: "TRUEPREDICATE", sorts: [Sort("population", ascending: false)],
          after: KeysetPosition(sortValues: [.int(5000)], recordName: "lyon"), expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY t."population" DESC, t."$recordName" ASC
        KEYSET t."population" <= ? AND ((t."population" < ?) OR (t."population" = ? AND t."$recordName" > ?))
          ARGUMENTS 5000, 5000, 5000, "lyon"
        KEYSET t."population" IS NULL
        """#),
    .init(format: "capital == YES", sorts: [Sort("name"), Sort("elevation")],
          after: KeysetPosition(sortValues: [.string("Lyon"), .null], recordName: "lyon"), expected: #"""
        WHERE t."$zone" = ? AND (t."capital" IS NOT NULL AND t."capital" = ?)
          ARGUMENTS "", 1
        ORDER BY t."name" ASC, t."elevation" ASC, t."$recordName" ASC
        KEYSET t."name" >= ? AND ((t."name" > ?) OR (t."name" = ? AND t."elevation" IS NOT NULL) OR (t."name" = ? AND t."elevation" IS NULL AND t."$recordName" > ?))
          ARGUMENTS "Lyon", "Lyon", "Lyon", "Lyon", "lyon"
        """#),
    // Under a localized sort the position's string becomes its sort key: the index seeks it.
    .init(format: "TRUEPREDICATE", sorts: [Sort("name", comparison: .localized)],
          after: KeysetPosition(sortValues: [.string("Lyon")], recordName: "lyon"), callbacks: false, expected: #"""
        WHERE t."$zone" = ? AND 1
          ARGUMENTS ""
        ORDER BY t."name$localized" ASC, t."$recordName" ASC
        KEYSET t."name$localized" >= ? AND ((t."name$localized" > ?) OR (t."name$localized" = ? AND t."$recordName" > ?))
          ARGUMENTS <14 bytes>, <14 bytes>, <14 bytes>, "lyon"
        """#),
]

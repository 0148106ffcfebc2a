import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Index types as CloudKit declares them (issue #29): what fields gain just in time, what
/// production refuses for want of an index, and that adding and removing index types on a
/// populated store never changes an answer, on every engine.
@Suite("Index types")
struct IndexTypeTests {
    /// A few cities with every kind of field the index types treat differently.
    static let places: [Record] = [
        place("paris", "Paris", population: 2_138_551, names: ["Lutetia", "Paname", "París"], latitude: 48.85341, longitude: 2.3488),
        place("sao", "São Paulo", population: 12_325_232, names: ["Sampa", "Sao Paulo", "São Paulo"], latitude: -23.5475, longitude: -46.63611),
        place("san", "San Francisco", population: 864_816, names: ["SF", "San Fran"], latitude: 37.77493, longitude: -122.41942),
        place("santos", "Santos", population: 433_966, names: ["Santos"], latitude: -23.96083, longitude: -46.33361),
        place("zurich", "Zürich", population: 341_730, names: ["Zurich", "Züri"], latitude: 47.36667, longitude: 8.55),
        place("lyon", "Lyon", population: 472_317, names: [], latitude: 45.74846, longitude: 4.84671),
    ]

    static func place(_ id: String, _ name: String, population: Int64, names: [String], latitude: Double, longitude: Double) -> Record {
        Record(recordType: "Place", recordID: RecordID(recordName: id), fields: [
            "name": .string(name), "population": .int(population), "names": .list(names.map(Value.string)),
            "location": .location(Location(latitude: latitude, longitude: longitude)),
        ])
    }

    /// Queries that read every index structure: field indexes, folded forms, localized sort
    /// keys, list members (also folded), the spatial index.
    static let queries: [(format: String, sorts: [Sort])] = [
        ("name == 'Paris'", []),
        ("name ==[cd] 'sao paulo'", []),
        ("name BEGINSWITH[c] 'san'", [Sort("name")]),
        ("name LIKE[cd] 'sa*'", [Sort("population", ascending: false)]),
        ("name CONTAINS[cd] 'u'", [Sort("name", comparison: .localized)]),
        ("population > 450000", [Sort("name", comparison: .localizedCaseInsensitive)]),
        ("population BETWEEN {400000, 900000}", [Sort("name", comparison: .caseInsensitive)]),
        ("ANY names BEGINSWITH 'San'", []),
        ("ANY names ==[cd] 'zuri'", []),
        ("'SF' IN names", []),
        ("distanceToLocation:fromLocation:(location, %@) < 600000", [Sort("name")]),
        ("TRUEPREDICATE", [Sort("name", comparison: .localizedStandard)]),
    ]

    /// The record names each query selects, in order.
    static func answers(_ store: Store) throws -> [[String]] {
        let lyon = Location(latitude: 45.74846, longitude: 4.84671)
        return try queries.map { query in
            let predicate = try FormatPredicate(format: query.format, argumentArray: query.format.contains("%@") ? [.location(lyon)] : [])
            return try store.records(ofType: "Place", matching: predicate, sorts: query.sorts).map(\.recordID.recordName)
        }
    }

    /// The places' record type with its fields queryable and sortable, or not.
    static func schema(queryable: Bool, sortable: Bool) -> RecordTypeSchema {
        RecordTypeSchema(name: "Place", fields: [
            FieldSchema(name: "name", type: .string, isQueryable: queryable, isSortable: sortable, isSearchable: true),
            FieldSchema(name: "population", type: .int64, isQueryable: queryable, isSortable: sortable),
            FieldSchema(name: "names", type: .list(.string), isQueryable: queryable, isSortable: false),
            FieldSchema(name: "location", type: .location, isQueryable: queryable, isSortable: false),
        ])
    }

    static func declare(_ store: Store, queryable: Bool, sortable: Bool) throws {
        try store.define(schema(queryable: queryable, sortable: sortable))
    }

    @Test("Fields gained just in time get the automatic index types", arguments: TestEngine.allCases)
    func automaticDefaults(engine: TestEngine) throws {
        let store = try engine.makeStore()
        _ = try store.save(Self.places)
        let place = try #require(try store.schema(for: "Place"))
        #expect(place.justInTimeIndexes == .automatic)
        #expect(place.fields.map { "\($0.name): \($0.indexDescription)" }.sorted() == [
            "location: queryable", "name: queryable searchable", "names: ", "population: queryable sortable",
        ])
    }

    @Test("A record type declared with .all gains every index type", arguments: TestEngine.allCases)
    func allIndexes(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.define(RecordTypeSchema(name: "Place", justInTimeIndexes: .all))
        _ = try store.save(Self.places)
        let place = try #require(try store.schema(for: "Place"))
        #expect(place.justInTimeIndexes == .all)
        #expect(place.fields.map { "\($0.name): \($0.indexDescription)" }.sorted() == [
            "location: queryable", "name: queryable sortable searchable", "names: queryable", "population: queryable sortable",
        ])
    }

    @Test("A record type stored before index policies reads as .all")
    func storedBeforePolicies() throws {
        let current = try JSONEncoder().encode(RecordTypeSchema(name: "City", fields: [FieldSchema(name: "name", type: .string)]))
        var stored = try #require(try JSONSerialization.jsonObject(with: current) as? [String: Any])
        stored["justInTimeIndexes"] = nil
        let decoded = try JSONDecoder().decode(RecordTypeSchema.self, from: JSONSerialization.data(withJSONObject: stored))
        #expect(decoded.justInTimeIndexes == .all)
        #expect(decoded.fields == [FieldSchema(name: "name", type: .string)])
        let encoded = try JSONEncoder().encode(RecordTypeSchema(name: "City", justInTimeIndexes: .automatic))
        #expect(try JSONDecoder().decode(RecordTypeSchema.self, from: encoded).justInTimeIndexes == .automatic)
    }

    @Test("Adding and removing index types on a populated store keeps every answer", arguments: TestEngine.allCases)
    func indexChangesKeepAnswers(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try Self.declare(store, queryable: true, sortable: true)
        _ = try store.save(Self.places)
        let expected = try Self.answers(store)
        #expect(expected[1] == ["sao"])
        #expect(expected[7] == ["san", "santos"])
        #expect(expected[10] == ["lyon", "paris", "zurich"])
        try Self.declare(store, queryable: false, sortable: false)
        #expect(try Self.answers(store) == expected)
        try Self.declare(store, queryable: true, sortable: false)
        #expect(try Self.answers(store) == expected)
        try Self.declare(store, queryable: true, sortable: true)
        #expect(try Self.answers(store) == expected)
        // Records saved while an index type is off are found once it is on again.
        try Self.declare(store, queryable: false, sortable: false)
        _ = try store.save([Self.place("santiago", "Santiago", population: 5_614_000, names: ["Stgo"], latitude: -33.45694, longitude: -70.64827)])
        try Self.declare(store, queryable: true, sortable: true)
        let lyon = Location(latitude: 45.74846, longitude: 4.84671)
        let near = try FormatPredicate(format: "distanceToLocation:fromLocation:(location, %@) < 20000000", argumentArray: [.location(lyon)])
        #expect(try store.records(ofType: "Place", matching: FormatPredicate(format: "ANY names == 'Stgo'")).map(\.recordID.recordName) == ["santiago"])
        #expect(try store.count(ofType: "Place", matching: near) == 7)
        #expect(try store.records(ofType: "Place", matching: FormatPredicate(format: "name BEGINSWITH[c] 'santi'")).map(\.recordID.recordName) == ["santiago"])
    }

    @Test("Production refuses a query without the index type it needs, naming field and type", arguments: TestEngine.allCases)
    func productionRefusals(engine: TestEngine) throws {
        let development = try engine.makeStore()
        try development.define(RecordTypeSchema(name: "Place", fields: [
            FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: false, isSearchable: false),
            FieldSchema(name: "population", type: .int64, isQueryable: false, isSortable: true),
            FieldSchema(name: "names", type: .list(.string), isQueryable: false, isSortable: false),
            FieldSchema(name: "location", type: .location, isQueryable: true, isSortable: false),
        ]))
        _ = try development.save(Self.places)
        let production = Store(engine: development.engine, mode: .production)
        let refusals: [(String, [Sort], String)] = [
            ("population == 2138551", [], "Field 'population' is not marked queryable (record type 'Place')"),
            ("name > 'M'", [], "Field 'name' is not marked sortable (record type 'Place')"),
            ("name == 'Paris'", [Sort("name")], "Field 'name' is not marked sortable (record type 'Place')"),
            ("ANY names == 'SF'", [], "Field 'names' is not marked queryable (record type 'Place')"),
            ("self CONTAINS 'paris'", [], "Record type 'Place' has no field marked searchable"),
        ]
        for (format, sorts, message) in refusals {
            #expect(throws: RecordStoreError.self, "\(format)") {
                try production.records(ofType: "Place", matching: FormatPredicate(format: format), sorts: sorts)
            }
            do {
                _ = try production.records(ofType: "Place", matching: FormatPredicate(format: format), sorts: sorts)
            } catch {
                #expect("\(error)" == message)
            }
        }
        // What the declaration serves is answered in production too.
        #expect(try production.records(ofType: "Place", matching: FormatPredicate(format: "name ==[cd] 'sao paulo'")).map(\.recordID.recordName) == ["sao"])
        #expect(try production.records(ofType: "Place", matching: FormatPredicate(format: "population >= 2000000"), sorts: [Sort("population")])
            .map(\.recordID.recordName) == ["paris", "sao"])
        // Development answers every refused query exactly.
        #expect(try development.records(ofType: "Place", matching: FormatPredicate(format: "population == 2138551")).map(\.recordID.recordName) == ["paris"])
        #expect(try development.records(ofType: "Place", matching: FormatPredicate(format: "ANY names == 'SF'")).map(\.recordID.recordName) == ["san"])
        #expect(try development.records(ofType: "Place", matching: FormatPredicate(format: "name > 'S'"), sorts: [Sort("name")]).map(\.recordID.recordName)
            == ["san", "santos", "sao", "zurich"])
    }

    @Test("Production refuses a token search of a field that is not searchable; development scans", arguments: TestEngine.allCases)
    func productionTokenSearch(engine: TestEngine) throws {
        let development = try engine.makeStore()
        func declare(nameSearchable: Bool) throws {
            try development.define(RecordTypeSchema(name: "Place", fields: [
                FieldSchema(name: "name", type: .string, isQueryable: !nameSearchable, isSortable: false, isSearchable: nameSearchable),
                FieldSchema(name: "population", type: .int64, isQueryable: true, isSortable: true),
                FieldSchema(name: "names", type: .list(.string), isQueryable: false, isSortable: false),
                FieldSchema(name: "location", type: .location, isQueryable: true, isSortable: false),
            ]))
        }
        try declare(nameSearchable: false)
        _ = try development.save(Self.places)
        let production = Store(engine: development.engine, mode: .production)
        // CONTAINS_ALL_TOKENS and CONTAINS_ANY_TOKENS of `query serve` become these.
        let allTokens = "ANY tokenize:using:(name, nil) == 'sao' AND ANY tokenize:using:(name, nil) == 'paulo'"
        let anyTokens = "ANY tokenize:using:(name, nil) == 'paris' OR ANY tokenize:using:(name, nil) == 'zurich'"
        let refusals: [(String, RecordStoreError, String)] = [
            (allTokens, .fieldNotSearchable(field: "name", recordType: "Place"), "Field 'name' is not marked searchable (record type 'Place')"),
            (anyTokens, .fieldNotSearchable(field: "name", recordType: "Place"), "Field 'name' is not marked searchable (record type 'Place')"),
            ("population > 0 AND 'paris' IN tokenize:using:(name, nil)", .fieldNotSearchable(field: "name", recordType: "Place"),
             "Field 'name' is not marked searchable (record type 'Place')"),
            ("self CONTAINS 'paulo'", .notSearchable(recordType: "Place"), "Record type 'Place' has no field marked searchable"),
        ]
        for (format, error, message) in refusals {
            #expect(throws: error, "\(format)") {
                try production.records(ofType: "Place", matching: FormatPredicate(format: format))
            }
            #expect(error.description == message)
        }
        // Development answers the token searches exactly, by reading the rows.
        #expect(try development.records(ofType: "Place", matching: FormatPredicate(format: allTokens)).map(\.recordID.recordName) == ["sao"])
        #expect(try development.records(ofType: "Place", matching: FormatPredicate(format: anyTokens), sorts: [Sort("population")])
            .map(\.recordID.recordName) == ["zurich", "paris"])

        // Once the field is searchable (and no longer queryable), production answers both forms.
        try declare(nameSearchable: true)
        #expect(try production.records(ofType: "Place", matching: FormatPredicate(format: allTokens)).map(\.recordID.recordName) == ["sao"])
        #expect(try production.records(ofType: "Place", matching: FormatPredicate(format: anyTokens), sorts: [Sort("population")])
            .map(\.recordID.recordName) == ["zurich", "paris"])
        #expect(try production.records(ofType: "Place", matching: FormatPredicate(format: "self CONTAINS 'paulo'")).map(\.recordID.recordName) == ["sao"])
        #expect(throws: RecordStoreError.notQueryable(field: "name", recordType: "Place")) {
            try production.records(ofType: "Place", matching: FormatPredicate(format: "name == 'Paris'"))
        }
    }

    @Test("A query on a field without its index is a scan that explain shows", arguments: [TestEngine.sqlite])
    func explainShowsScan(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try Self.declare(store, queryable: true, sortable: true)
        _ = try store.save(Self.places)
        let member = try FormatPredicate(format: "ANY names BEGINSWITH[cd] 'san'")
        let indexed = try store.explain(ofType: "Place", matching: member)
        #expect(indexed.residual == nil)
        #expect(indexed.sql.contains("Place$list"))
        try Self.declare(store, queryable: false, sortable: false)
        // Without its members' table, each record's list is read from its JSON (json_each) and
        // each member tested by the evaluator's callback: a scan, with no residual left.
        let scanned = try store.explain(ofType: "Place", matching: member)
        #expect(scanned.residual == nil)
        #expect(scanned.sql.contains("json_each"))
        #expect(!scanned.sql.contains("Place$list"))
        #expect(scanned.indexesUsed.allSatisfy { !$0.contains("names") })
    }
}

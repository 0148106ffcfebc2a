import EngineTestSupport
import Foundation
import GRDB
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// Issue #29: SQLite indexes a queryable location by a B-tree on its latitude band and longitude
/// (``SQLiteLocationGrid``), no longer by an R*Tree. Radius searches give the evaluator's
/// answers at band edges, the poles and the 180th meridian, seek the index, and a store written
/// with R*Trees is migrated when it opens.
@Suite("SQLite's location band index")
struct SQLiteLocationGridTests {
    /// Points on band edges (48.5° starts band 277), beside the poles and on both sides of the
    /// 180th meridian; one without a location.
    static let places: [(name: String, latitude: Double?, longitude: Double)] = [
        ("paris", 48.8566, 2.3522), ("edge-south", 48.5, 2.35), ("below-edge", 48.499999999, 2.35),
        ("edge-north", 49.0, 2.4), ("rouen", 49.4431, 1.0993), ("lyon", 45.74846, 4.84671),
        ("north-pole", 90, 0), ("near-north-pole", 89.9, 120), ("south-pole", -90, 0), ("near-south-pole", -89.95, -45),
        ("fiji-east", -17.7, 179.99), ("fiji-west", -17.7, -179.99), ("suva", -18.1416, 178.4419),
        ("nowhere", nil, 0),
    ]

    static func records() -> [RecordStore.Record] {
        places.map { place in
            var fields: [String: Value] = ["name": .string(place.name)]
            if let latitude = place.latitude { fields["location"] = .location(Location(latitude: latitude, longitude: place.longitude)) }
            return RecordStore.Record(recordType: "Place", recordID: RecordID(recordName: place.name), fields: fields)
        }
    }

    static let schema = RecordTypeSchema(name: "Place", fields: [
        FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: false),
        FieldSchema(name: "location", type: .location, isQueryable: true, isSortable: false),
    ])

    /// Circles that start, end or straddle a band edge, hold a pole, or cross the 180th meridian.
    static let circles: [(center: Location, radius: Double)] = [
        (Location(latitude: 48.8566, longitude: 2.3522), 50_000),
        (Location(latitude: 48.5, longitude: 2.35), 1),
        (Location(latitude: 48.499999999, longitude: 2.35), 0.5),
        (Location(latitude: 49.0, longitude: 2.4), 100),
        (Location(latitude: 89.95, longitude: 60), 20_000),
        (Location(latitude: -89.99, longitude: 170), 10_000),
        (Location(latitude: -17.7, longitude: 180), 5_000),
        (Location(latitude: -17.7, longitude: -179.0), 200_000),
        (Location(latitude: 0, longitude: 0), 20_100_000),
    ]

    /// The names each circle holds, by the store's query.
    static func answers(_ store: Store) throws -> [[String]] {
        try circles.map { circle in
            let predicate = try FormatPredicate(
                format: "distanceToLocation:fromLocation:(location, %@) < %@", argumentArray: [.location(circle.center), .double(circle.radius)])
            return try store.records(ofType: "Place", matching: predicate, sorts: [Sort("name")]).map(\.recordID.recordName)
        }
    }

    /// 2,000 more places on a lattice of the world, none near the test points.
    static let fillerPlaces: [(name: String, latitude: Double?, longitude: Double)] = (0..<2_000).map { index in
        let latitude: Double = -59.877 + Double(index % 40) * 3
        let longitude: Double = -169.544 + Double(index / 40) * 6.8
        return (name: "filler-\(index)", latitude: latitude, longitude: longitude)
    }

    static func fillers() -> [RecordStore.Record] {
        fillerPlaces.map { place in
            RecordStore.Record(
                recordType: "Place", recordID: RecordID(recordName: place.name),
                fields: ["name": .string(place.name), "location": .location(Location(latitude: place.latitude ?? 0, longitude: place.longitude))])
        }
    }

    /// The names each circle holds, by the evaluator's distance on every record.
    static func expectedAnswers(with more: [(name: String, latitude: Double?, longitude: Double)] = []) -> [[String]] {
        circles.map { circle in
            (places + more).compactMap { place in
                guard let latitude = place.latitude else { return nil }
                return Location(latitude: latitude, longitude: place.longitude).distance(to: circle.center) < circle.radius ? place.name : nil
            }.sorted()
        }
    }

    @Test("Band numbers are the index's: half degrees from the south pole, truncated")
    func bands() throws {
        #expect(SQLiteLocationGrid.band(ofLatitude: -90) == 0)
        #expect(SQLiteLocationGrid.band(ofLatitude: 48.5) == 277)
        #expect(SQLiteLocationGrid.band(ofLatitude: 48.499999999) == 276)
        #expect(SQLiteLocationGrid.band(ofLatitude: 90) == 360)
        // SQLite computes the same bands as Swift, at the edges too.
        let queue = try DatabaseQueue()
        for latitude in [-90, -89.75, -0.0000001, 0, 48.499999999, 48.5, 89.999999, 90] {
            let band = try queue.read { db in
                try Int64.fetchOne(db, sql: "SELECT \(SQLiteLocationGrid.bandExpression(latitude: "?"))", arguments: [latitude])
            }
            #expect(band == SQLiteLocationGrid.band(ofLatitude: latitude), "latitude \(latitude)")
        }
    }

    @Test("Radius searches answer as the evaluator, through the band index, with or without callbacks")
    func radiusSearches() throws {
        let expected = Self.expectedAnswers()
        #expect(expected[0] == ["below-edge", "edge-north", "edge-south", "paris"])
        #expect(expected[6] == ["fiji-east", "fiji-west"])
        for engine in [TestEngine.sqlite, .portableSQLite] {
            let store = try engine.makeStore()
            try store.define(Self.schema)
            _ = try store.save(Self.records())
            #expect(try Self.answers(store) == expected, "\(engine)")
            // With statistics of a table of some size, the box leads the plan: the band index
            // gives the row numbers, then the rows are read by number.
            _ = try store.save(Self.fillers())
            try store.optimize()
            let paris = try FormatPredicate(
                format: "distanceToLocation:fromLocation:(location, %@) < 50000", argumentArray: [.location(Self.circles[0].center)])
            let plan = try store.explain(ofType: "Place", matching: paris)
            #expect(plan.indexesUsed == ["Place$location$index"], "\(engine): \(plan.queryPlanDetails)")
            #expect(plan.queryPlanDetails.first == "SEARCH t USING INTEGER PRIMARY KEY (rowid=?)", "\(engine): \(plan.queryPlanDetails)")
            // Across the 180th meridian: one seek of the index per side.
            let fiji = try FormatPredicate(
                format: "distanceToLocation:fromLocation:(location, %@) < 5000", argumentArray: [.location(Self.circles[6].center)])
            let crossing = try store.explain(ofType: "Place", matching: fiji).queryPlanDetails
            #expect(crossing.filter { $0.contains("USING COVERING INDEX Place$location$index") }.count == 2, "\(engine): \(crossing)")
            #expect(!crossing.contains { $0.hasPrefix("SCAN") }, "\(engine): \(crossing)")
            #expect(try Self.answers(store) == Self.expectedAnswers(with: Self.fillerPlaces), "\(engine)")
        }
    }

    @Test("Swapped, inclusive and negated radius tests, indexed or not, answer as the memory engine")
    func radiusTestForms() throws {
        let paris = Location(latitude: 48.8566, longitude: 2.3522)
        let edge = Location(latitude: 48.5, longitude: 2.35)
        // The distance from Paris to the band edge, exactly: `<=` holds there, `<` does not.
        let exact = edge.distance(to: paris)
        let formats: [(String, [Value])] = [
            ("distanceToLocation:fromLocation:(location, %@) < 50000", [.location(paris)]),
            ("distanceToLocation:fromLocation:(%@, location) < 50000", [.location(paris)]),
            ("distanceToLocation:fromLocation:(location, %@) <= %@", [.location(paris), .double(exact)]),
            ("distanceToLocation:fromLocation:(location, %@) < %@", [.location(paris), .double(exact)]),
            ("%@ >= distanceToLocation:fromLocation:(location, %@)", [.double(exact), .location(paris)]),
            ("NOT (distanceToLocation:fromLocation:(location, %@) < 50000)", [.location(paris)]),
            ("NOT (distanceToLocation:fromLocation:(location, %@) < 50000) OR name == 'paris'", [.location(paris)]),
        ]
        let memory = try TestEngine.memory.makeStore()
        _ = try memory.save(Self.records())
        var unindexed = Self.schema
        unindexed.fields[1].isQueryable = false
        for engine in [TestEngine.sqlite, .portableSQLite] {
            for schema in [Self.schema, unindexed] {
                let store = try engine.makeStore()
                try store.define(schema)
                _ = try store.save(Self.records())
                for (format, arguments) in formats {
                    let predicate = try FormatPredicate(format: format, argumentArray: arguments)
                    let expected = try memory.records(ofType: "Place", matching: predicate, sorts: [Sort("name")]).map(\.recordID.recordName)
                    let answered = try store.records(ofType: "Place", matching: predicate, sorts: [Sort("name")]).map(\.recordID.recordName)
                    #expect(answered == expected, "\(engine), queryable \(schema.fields[1].isQueryable): \(format)")
                }
            }
        }
        let inclusive = try FormatPredicate(format: "distanceToLocation:fromLocation:(location, %@) <= %@", argumentArray: [.location(paris), .double(exact)])
        #expect(try memory.records(ofType: "Place", matching: inclusive).map(\.recordID.recordName).contains("edge-south"))
        let negated = try FormatPredicate(format: "NOT (distanceToLocation:fromLocation:(location, %@) < 50000)", argumentArray: [.location(paris)])
        #expect(try memory.records(ofType: "Place", matching: negated).map(\.recordID.recordName).contains("nowhere"))
    }

    @Test("Moving and removing a location moves it in the index; not queryable, no index and the same answers")
    func updatesAndDeclarations() throws {
        let store = try TestEngine.sqlite.makeStore()
        try store.define(Self.schema)
        _ = try store.save(Self.records())
        var lyon = try #require(try store.record(for: RecordID(recordName: "lyon")))
        lyon["location"] = .location(Location(latitude: 48.86, longitude: 2.35))
        var paris = try #require(try store.record(for: RecordID(recordName: "paris")))
        paris["location"] = nil
        _ = try store.save([lyon, paris])
        let near = try FormatPredicate(
            format: "distanceToLocation:fromLocation:(location, %@) < 50000", argumentArray: [.location(Self.circles[0].center)])
        #expect(try store.records(ofType: "Place", matching: near, sorts: [Sort("name")]).map(\.recordID.recordName) == ["below-edge", "edge-north", "edge-south", "lyon"])

        var unindexed = Self.schema
        unindexed.fields[1].isQueryable = false
        try store.define(unindexed)
        #expect(try !store.explain(ofType: "Place", matching: near).indexesUsed.contains("Place$location$index"))
        #expect(try store.records(ofType: "Place", matching: near, sorts: [Sort("name")]).map(\.recordID.recordName) == ["below-edge", "edge-north", "edge-south", "lyon"])
        try store.define(Self.schema)
        #expect(try store.explain(ofType: "Place", matching: near).indexesUsed.contains("Place$location$index"))
        #expect(try store.records(ofType: "Place", matching: near, sorts: [Sort("name")]).map(\.recordID.recordName) == ["below-edge", "edge-north", "edge-south", "lyon"])
    }

    @Test("A layout-4 store with an R*Tree per location field is migrated when it opens")
    func migrationFromRTrees() throws {
        let path = TestEngine.temporaryDatabasePath("location-grid-migration")
        let store = try Store.open(path: path)
        try store.define(Self.schema)
        _ = try store.save(Self.records())
        let queue = try DatabaseQueue(path: path)
        // The layout before: no band index, an R*Tree of the valid points.
        try queue.write { db in
            try db.execute(sql: #"DROP INDEX "Place$location$index""#)
            try db.execute(sql: """
                CREATE VIRTUAL TABLE "Place$location$rtree" USING rtree(id, minLatitude, maxLatitude, minLongitude, maxLongitude);
                INSERT INTO "Place$location$rtree" SELECT rowid, "location$latitude", "location$latitude", "location$longitude", "location$longitude"
                FROM "Place" WHERE "location$latitude" IS NOT NULL;
                UPDATE "$metadata" SET value = 4 WHERE name = 'layoutVersion';
                """)
        }
        try queue.close()

        let reopened = try Store.open(path: path)
        #expect(try Self.answers(reopened) == Self.expectedAnswers())
        let stored = try DatabaseQueue(path: path).read { db in
            (try db.tableExists("Place$location$rtree"),
             // (GRDB's `indexes(on:)` leaves out indexes on expressions.)
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Place'").contains("Place$location$index"),
             try Int64.fetchOne(db, sql: #"SELECT value FROM "$metadata" WHERE name = 'layoutVersion'"#))
        }
        #expect(stored.0 == false)
        #expect(stored.1 == true)
        #expect(stored.2 == SQLiteLayoutMigration.currentVersion)
    }
}

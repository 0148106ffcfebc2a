import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@testable import RecordStorePostgres
@_spi(StorageEngine) @testable import RecordStoreSQL
import Testing

/// Issue #29, layouts 2 and 3 of the PostgreSQL engine: the B-trees no sort reads end in the
/// column (deduplicated by PostgreSQL), `[cd]` indexes read `COALESCE(cd, c)`, locations have an
/// SP-GiST index, and a table's 8-byte columns come first. A store of layout 1 or 2 gets the new
/// indexes when opened, and answers the same.
@Suite("PostgreSQL layouts 2 and 3: index definitions and column order")
struct PostgresLayoutDefinitionTests {
    static let schema = RecordTypeSchema(name: "Place", fields: [
        FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: false, isSearchable: true),
        FieldSchema(name: "code", type: .string, isQueryable: true, isSortable: true),
        FieldSchema(name: "population", type: .int64, isQueryable: true, isSortable: true),
        FieldSchema(name: "location", type: .location, isQueryable: true, isSortable: false),
    ])

    @Test func onlyTheBTreesASortReadsEndInTheRecordName() {
        let targets = Dictionary(uniqueKeysWithValues: PostgresSchemaStorage.secondaryIndexes(Self.schema).map { ($0.name, $0.target) })
        #expect(targets["Place$name$index"] == #"ON "Place" ("$zone", ("name") NULLS FIRST) WITH (fillfactor = 100)"#)
        #expect(targets["Place$name$c$index"] == #"ON "Place" ("$zone", "name$c" NULLS FIRST) WITH (fillfactor = 100)"#)
        // `[cd]` is read and indexed as COALESCE(cd, c): the cd column is null where the two are equal.
        #expect(targets["Place$name$cd$index"] == #"ON "Place" ("$zone", (COALESCE("name$cd", "name$c")) NULLS FIRST) WITH (fillfactor = 100)"#)
        #expect(targets["Place$code$index"] == #"ON "Place" ("$zone", ("code") NULLS FIRST, "$recordName") WITH (fillfactor = 100)"#)
        #expect(targets["Place$code$c$index"] == #"ON "Place" ("$zone", "code$c" NULLS FIRST, "$recordName") WITH (fillfactor = 100)"#)
        #expect(targets["Place$code$cd$index"] == #"ON "Place" ("$zone", (COALESCE("code$cd", "code$c")) NULLS FIRST) WITH (fillfactor = 100)"#)
        #expect(targets["Place$code$localized$index"] == #"ON "Place" ("$zone", "code$localized" NULLS FIRST, "$recordName") WITH (fillfactor = 100)"#)
        #expect(targets["Place$population$index"] == #"ON "Place" ("$zone", ("population") NULLS FIRST, "$recordName") WITH (fillfactor = 100)"#)
        #expect(targets["Place$location$location$index"] == #"ON "Place" USING spgist (point("location$latitude", "location$longitude")) WITH (fillfactor = 100)"#)
        #expect(targets["Place$fullText$index"] == #"ON "Place" USING gin ("$fullText")"#)
        // A reference field's B-tree ends in the record name though no sort reads it: walks,
        // inverse to-manys and DELETE_SELF read one reference's records in record-name order.
        let order = RecordTypeSchema(name: "Order", fields: [FieldSchema(name: "customer", type: .reference, isQueryable: true, isSortable: false)])
        let orderTargets = Dictionary(uniqueKeysWithValues: PostgresSchemaStorage.secondaryIndexes(order).map { ($0.name, $0.target) })
        #expect(orderTargets["Order$customer$index"] == #"ON "Order" ("$zone", ("customer") NULLS FIRST, "$recordName") WITH (fillfactor = 100)"#)
    }

    @Test func addedFieldsComeEightByteColumnsFirst() {
        let fields: [FieldSchema] = [
            FieldSchema(name: "name", type: .string), FieldSchema(name: "flag", type: .bool),
            FieldSchema(name: "location", type: .location), FieldSchema(name: "population", type: .int64),
            FieldSchema(name: "when", type: .date), FieldSchema(name: "tags", type: .list(.string)),
        ]
        let added: [SchemaChange] = fields.map { SchemaChange.addedField(recordType: "Place", $0) }
        let changes: [SchemaChange] = [SchemaChange.addedRecordType("Place")] + added
            + [SchemaChange.changedFieldType(recordType: "Place", field: "population", FieldType.double)]
        let ordered = PostgresSchemaStorage.inColumnOrder(changes).map { change -> String in
            switch change {
            case .addedRecordType(let name): "type \(name)"
            case .addedField(_, let field): field.name
            case .changedFieldType(_, let field, _): "changed \(field)"
            }
        }
        #expect(ordered == ["type Place", "population", "when", "location", "flag", "name", "tags", "changed population"])
    }
}

@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
struct PostgresLayoutMigrationTests {
    /// The record names each query selects, in order.
    static func answers(_ store: Store) async throws -> [[String]] {
        let lyon = Location(latitude: 45.74846, longitude: 4.84671)
        let queries: [(format: String, sorts: [Sort])] = [
            ("name == 'Paris'", []), ("name ==[cd] 'sao paulo'", []), ("name BEGINSWITH[c] 'san'", [Sort("name")]),
            ("name LIKE[cd] 'sa*'", [Sort("population", ascending: false)]), ("population > 450000", [Sort("code")]),
            ("distanceToLocation:fromLocation:(location, %@) < 600000", [Sort("name")]), ("code IN {'FR', 'BR'}", []),
        ]
        var answers: [[String]] = []
        for query in queries {
            let predicate = try FormatPredicate(format: query.format, argumentArray: query.format.contains("%@") ? [.location(lyon)] : [])
            answers.append(try await store.records(ofType: "Place", matching: predicate, sorts: query.sorts).map(\.recordID.recordName))
        }
        return answers
    }

    @Test func aLayoutOneStoreGetsTheNewIndexesWhenOpenedAndAnswersTheSame() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let store = try await Store.open(url: url)
        try await store.define(PostgresLayoutDefinitionTests.schema)
        let codes = ["paris": "FR", "sao": "BR", "san": "US", "santos": "BR", "zurich": "CH", "lyon": "FR"]
        _ = try await store.save(IndexTypeTests.places.map { place in
            var fields = place.fields
            fields["names"] = nil
            fields["code"] = .string(codes[place.recordID.recordName] ?? "")
            return Record(recordType: "Place", recordID: place.recordID, fields: fields)
        })
        let expected = try await Self.answers(store)
        #expect(expected == [["paris"], ["sao"], ["san", "santos"], ["sao", "san", "santos"], ["sao", "lyon", "paris", "san"],
                             ["lyon", "paris", "zurich"], ["lyon", "paris", "santos", "sao"]])
        let current = try await PostgresIndexBuildTests.indexes(url)

        // Layout 1: the same indexes ending in the record name, a GiST index of locations.
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        let redefined = PostgresSchemaStorage.secondaryIndexes(PostgresLayoutDefinitionTests.schema).filter { $0.definedInLayout >= 2 && !$0.target.contains("gin") }
        #expect(redefined.map(\.name).sorted() == ["Place$code$cd$index", "Place$location$location$index", "Place$name$c$index",
                                                   "Place$name$cd$index", "Place$name$index"])
        try await engine.write { connection in
            for index in redefined {
                let target = index.target.contains("spgist")
                    ? index.target.replacingOccurrences(of: "USING spgist", with: "USING gist")
                    : index.target.replacingOccurrences(of: " NULLS FIRST)", with: #" NULLS FIRST, "$recordName")"#)
                try await connection.execute(SQLStatement(sql: "DROP INDEX \(PostgresDialect.quote(index.name))"))
                try await connection.execute(SQLStatement(sql: "CREATE INDEX \(PostgresDialect.quote(index.name)) \(target)"))
            }
            try await connection.execute(SQLStatement(sql: #"UPDATE "$metadata" SET value = '1'::bytea WHERE name = 'layoutVersion'"#))
        }
        let layoutOne = try await PostgresIndexBuildTests.indexes(engine)
        #expect(layoutOne["Place$name$index"]?.contains(#"NULLS FIRST, "$recordName")"#) == true)
        #expect(layoutOne["Place$location$location$index"]?.contains("USING gist") == true)

        // Opening migrates: the redefined indexes are built again, nothing else changes.
        let reopened = try await Store.open(url: url)
        #expect(try await PostgresIndexBuildTests.indexes(url) == current)
        #expect(try await Self.answers(reopened) == expected)
        let after = try await PostgresEngine.open(try PostgresLocation(url))
        #expect(try await PostgresIndexBuildTests.marks(after).isEmpty)
        let version = try await after.read { connection in try await PostgresLayoutMigration(connection: connection).storedVersion() }
        #expect(version == PostgresLayoutMigration.currentVersion)
    }
}

/// Issue #29, layout 3: what a row leaves out because another column holds it, and a store of
/// layout 2 brought to layout 3 when opened.
@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
struct PostgresLayoutThreeTests {
    static let note = RecordTypeSchema(name: "Note", fields: [
        FieldSchema(name: "body", type: .string, isQueryable: false, isSortable: false, isSearchable: true),
    ])
    static let longWord = String(repeating: "w", count: 2_100)

    /// Places with codes, one with an altitude and one at extreme coordinates, and notes.
    static func fill(_ store: Store) async throws {
        try await store.define(PostgresLayoutDefinitionTests.schema)
        try await store.define(note)
        let codes = ["paris": "FR", "sao": "BR", "san": "US", "santos": "BR", "zurich": "CH", "lyon": "FR"]
        var places = IndexTypeTests.places.map { place in
            var fields = place.fields
            fields["names"] = nil
            fields["code"] = .string(codes[place.recordID.recordName] ?? "")
            return Record(recordType: "Place", recordID: place.recordID, fields: fields)
        }
        places.append(Record(recordType: "Place", recordID: RecordID(recordName: "peak"), fields: [
            "name": .string("Peak"), "location": .location(Location(latitude: 1.5, longitude: -0.0, altitude: 35.25)),
        ]))
        places.append(Record(recordType: "Place", recordID: RecordID(recordName: "edge"), fields: [
            "name": .string("Edge"), "location": .location(Location(latitude: .leastNonzeroMagnitude, longitude: -180)),
        ]))
        _ = try await store.save(places)
        _ = try await store.save([
            Record(recordType: "Note", recordID: RecordID(recordName: "long"), fields: ["body": .string("a \(longWord) b")]),
            Record(recordType: "Note", recordID: RecordID(recordName: "short"), fields: ["body": .string("a b c")]),
        ])
    }

    /// The answers of ``PostgresLayoutMigrationTests/answers(_:)``, then full-text ones, then
    /// every place's location as bits.
    static func answers(_ store: Store) async throws -> [[String]] {
        var answers = try await PostgresLayoutMigrationTests.answers(store)
        for (type, format) in [("Place", "self CONTAINS 'paulo'"), ("Place", "self CONTAINS 'zurich' OR self CONTAINS 'lyon'"),
                               ("Note", "self CONTAINS 'b'"), ("Note", "self CONTAINS '\(longWord)'"), ("Note", "NOT self CONTAINS 'c'")] {
            answers.append(try await store.records(ofType: type, matching: try FormatPredicate(format: format), sorts: []).map(\.recordID.recordName).sorted())
        }
        let places = try await store.records(ofType: "Place", matching: try FormatPredicate(format: "TRUEPREDICATE"), sorts: [])
        answers.append(places.map { place in
            guard case .location(let location)? = place.fields["location"] else { return "\(place.recordID.recordName): none" }
            let altitude = location.altitude.map { String($0.bitPattern, radix: 16) } ?? "-"
            return "\(place.recordID.recordName): \(String(location.latitude.bitPattern, radix: 16)) \(String(location.longitude.bitPattern, radix: 16)) \(altitude)"
        }.sorted())
        return answers
    }

    /// Rows of one statement as text.
    static func rows(_ engine: PostgresEngine, columns: Int = 1, _ sql: String) async throws -> [[String]] {
        try await engine.read { connection in
            var rows: [[String]] = []
            try await connection.forEachRow(SQLStatement(sql: sql)) { row in
                rows.append((0..<columns).map { index in
                    switch row.value(at: index) {
                    case .null: "null"
                    case .text(let text): text
                    case .integer(let integer): String(integer)
                    default: "?"
                    }
                })
                return true
            }
            return rows
        }
    }

    @Test func aRowLeavesOutWhatItsOtherColumnsHold() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let store = try await Store.open(url: url)
        try await Self.fill(store)
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        // `[cd]` is null where it equals `[c]` ("paris"), kept where it does not ("sao paulo" ≠ "são paulo");
        // a location without altitude keeps its text empty, one with an altitude keeps it whole.
        #expect(try await Self.rows(engine, columns: 4, #"SELECT "$recordName", "name$c", "name$cd", location FROM "Place" WHERE "$recordName" IN ('paris', 'sao', 'peak') ORDER BY 1"#)
            == [["paris", "paris", "null", ""], ["peak", "peak", "null", "1.5,-0.0,35.25"], ["sao", "são paulo", "sao paulo", ""]])
        #expect(try await Self.rows(engine, columns: 2, #"SELECT "$recordName", "$fullText"::text FROM "Note" ORDER BY 1"#)
            == [["long", "'b'"], ["short", "'b' 'c'"]])
        #expect(try await Self.rows(engine, #"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '"Place"'::regclass AND attname = '$fullText'"#)
            == [["tsvector"]])
        let answers = try await Self.answers(store)
        #expect(answers.dropLast() == [["paris"], ["sao"], ["san", "santos"], ["sao", "san", "santos"], ["sao", "lyon", "paris", "san"],
                                       ["lyon", "paris", "zurich"], ["lyon", "paris", "santos", "sao"],
                                       ["sao"], ["lyon", "zurich"], ["long", "short"], ["long"], ["long"]])
        // Locations read back bit for bit: -0.0, the smallest double, an altitude.
        #expect(answers.last?.contains("peak: \(String((1.5).bitPattern, radix: 16)) \(String((-0.0).bitPattern, radix: 16)) \(String((35.25).bitPattern, radix: 16))") == true)
        #expect(answers.last?.contains("edge: 1 \(String((-180.0).bitPattern, radix: 16)) -") == true)
        #expect(answers.last?.contains("paris: \(String((48.85341).bitPattern, radix: 16)) \(String((2.3488).bitPattern, radix: 16)) -") == true)
        // The modification date is null while it is the creation date, and read back as it.
        var lyon = try #require(try await store.records(ofType: "Place", matching: try FormatPredicate(format: "name == 'Lyon'"), sorts: []).first)
        lyon.fields["population"] = .int(472_318)
        _ = try await store.save([lyon])
        #expect(try await Self.rows(engine, columns: 2, #"SELECT "$recordName", ("$modificationDate" IS NULL)::integer FROM "Place" WHERE "$recordName" IN ('lyon', 'paris') ORDER BY 1"#)
            == [["lyon", "0"], ["paris", "1"]])
        let dated = try await store.records(ofType: "Place", matching: try FormatPredicate(format: "TRUEPREDICATE"), sorts: [Sort("modificationDate", ascending: false)])
        #expect(dated.first?.recordID.recordName == "lyon")
        let paris = try #require(dated.first { $0.recordID.recordName == "paris" })
        #expect(paris.modificationDate != nil && paris.modificationDate == paris.creationDate)
        let modified = try await store.records(
            ofType: "Place", matching: try FormatPredicate(format: "modificationDate > %@", argumentArray: [.date(try #require(paris.modificationDate))]), sorts: [])
        #expect(modified.map(\.recordID.recordName) == ["lyon"])
        // A word longer than the index holds is found by reading the records.
        let plan = try await store.explain(ofType: "Note", matching: try FormatPredicate(format: "self CONTAINS '\(Self.longWord)'"))
        #expect(!plan.description.contains("$fullText"))
    }

    @Test func aLayoutTwoStoreGetsVectorsAndTheNewIndexesWhenOpenedAndAnswersTheSame() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let store = try await Store.open(url: url)
        try await Self.fill(store)
        let expected = try await Self.answers(store)
        let current = try await PostgresIndexBuildTests.indexes(url)

        // Layout 2: words as text[], `[cd]` stored in full and indexed as a column, every location's
        // text stored, SP-GiST at its default fill.
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        try await engine.write { connection in
            for schema in [PostgresLayoutDefinitionTests.schema, Self.note] {
                for index in PostgresSchemaStorage.secondaryIndexes(schema) where index.definedInLayout == 3 {
                    try await connection.execute(SQLStatement(sql: "DROP INDEX \(PostgresDialect.quote(index.name))"))
                }
                let table = PostgresDialect.quote(schema.name)
                try await connection.execute(SQLStatement(sql: """
                    ALTER TABLE \(table) ALTER COLUMN "$fullText" DROP DEFAULT,
                        ALTER COLUMN "$fullText" TYPE text[] USING tsvector_to_array("$fullText"), ALTER COLUMN "$fullText" SET DEFAULT '{}'
                    """))
                try await connection.execute(SQLStatement(sql: #"CREATE INDEX "\#(schema.name)$fullText$index" ON \#(table) USING gin ("$fullText")"#))
            }
            try await connection.execute(SQLStatement(sql: #"UPDATE "Place" SET "name$cd" = "name$c" WHERE "name$cd" IS NULL"#))
            try await connection.execute(SQLStatement(sql: #"UPDATE "Place" SET "code$cd" = "code$c" WHERE "code$cd" IS NULL"#))
            try await connection.execute(SQLStatement(sql: #"UPDATE "Place" SET location = "location$latitude"::text || ',' || "location$longitude"::text WHERE location = ''"#))
            try await connection.execute(SQLStatement(sql: #"CREATE INDEX "Place$name$cd$index" ON "Place" ("$zone", "name$cd" NULLS FIRST) WITH (fillfactor = 100)"#))
            try await connection.execute(SQLStatement(sql: #"CREATE INDEX "Place$code$cd$index" ON "Place" ("$zone", "code$cd" NULLS FIRST) WITH (fillfactor = 100)"#))
            try await connection.execute(SQLStatement(sql: #"CREATE INDEX "Place$location$location$index" ON "Place" USING spgist (point("location$latitude", "location$longitude"))"#))
            try await connection.execute(SQLStatement(sql: #"UPDATE "$metadata" SET value = '2'::bytea WHERE name = 'layoutVersion'"#))
        }
        #expect(try await Self.rows(engine, #"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '"Note"'::regclass AND attname = '$fullText'"#)
            == [["text[]"]])

        // Opening migrates: the words become a tsvector, the redefined indexes are built again,
        // the rows of layout 2 read as before.
        let reopened = try await Store.open(url: url)
        #expect(try await PostgresIndexBuildTests.indexes(url) == current)
        #expect(try await Self.answers(reopened) == expected)
        let after = try await PostgresEngine.open(try PostgresLocation(url))
        #expect(try await Self.rows(after, #"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '"Note"'::regclass AND attname = '$fullText'"#)
            == [["tsvector"]])
        #expect(try await PostgresIndexBuildTests.marks(after).isEmpty)
        let version = try await after.read { connection in try await PostgresLayoutMigration(connection: connection).storedVersion() }
        #expect(version == PostgresLayoutMigration.currentVersion)
    }
}

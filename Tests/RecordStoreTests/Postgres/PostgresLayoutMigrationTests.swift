import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@testable import RecordStorePostgres
@testable import RecordStoreSQL
import Testing

/// Issue #29, layout 2 of the PostgreSQL engine: the B-trees no sort reads end in the column
/// (deduplicated by PostgreSQL), locations have an SP-GiST index, and a table's 8-byte columns
/// come first. A store of layout 1 gets the new indexes when opened, and answers the same.
@Suite("PostgreSQL layout 2: index definitions and column order")
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
        #expect(targets["Place$name$cd$index"] == #"ON "Place" ("$zone", "name$cd" NULLS FIRST) WITH (fillfactor = 100)"#)
        #expect(targets["Place$code$index"] == #"ON "Place" ("$zone", ("code") NULLS FIRST, "$recordName") WITH (fillfactor = 100)"#)
        #expect(targets["Place$code$c$index"] == #"ON "Place" ("$zone", "code$c" NULLS FIRST, "$recordName") WITH (fillfactor = 100)"#)
        #expect(targets["Place$code$cd$index"] == #"ON "Place" ("$zone", "code$cd" NULLS FIRST) WITH (fillfactor = 100)"#)
        #expect(targets["Place$code$localized$index"] == #"ON "Place" ("$zone", "code$localized" NULLS FIRST, "$recordName") WITH (fillfactor = 100)"#)
        #expect(targets["Place$population$index"] == #"ON "Place" ("$zone", ("population") NULLS FIRST, "$recordName") WITH (fillfactor = 100)"#)
        #expect(targets["Place$location$location$index"] == #"ON "Place" USING spgist (point("location$latitude", "location$longitude"))"#)
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
        let redefined = PostgresSchemaStorage.secondaryIndexes(PostgresLayoutDefinitionTests.schema).filter { $0.definedInLayout == 2 }
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

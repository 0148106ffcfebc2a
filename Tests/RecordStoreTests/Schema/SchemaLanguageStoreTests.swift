import EngineTestSupport
import TestSupport
import Testing
@testable import RecordStore
@testable import RecordStoreCore

/// CloudKit's schema language (issue #29): applying a `.ckdb` document to a store, exporting the
/// store's schema as one, and the fixed point apply → export → apply, on every engine.
@Suite("Schema language: applying to a store")
struct SchemaLanguageStoreTests {
    static let cities = SchemaLanguageParsingTests.cities

    /// What `export` prints for the City document: the store keeps its roles and grants (its
    /// security policy), not the attributes of system fields.
    static let exportedCities = """
        DEFINE SCHEMA

            CREATE ROLE Moderator;

            RECORD TYPE City (
        \(CKDBSystemFields.lines)
                name            STRING QUERYABLE SEARCHABLE SORTABLE,
                population      INT64 QUERYABLE SORTABLE,
                location        LOCATION QUERYABLE,
                alternatenames  LIST<STRING>,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

        """

    @Test("Applying creates the record types and fields with their index flags", arguments: TestEngine.allCases)
    func applies(engine: TestEngine) throws {
        let store = try engine.makeStore(mode: .production)
        try store.apply(try CloudKitSchemaDocument(parsing: Self.cities))
        let city = try #require(try store.schema(for: "City"))
        #expect(city.fields == [
            FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: true, isSearchable: true),
            FieldSchema(name: "population", type: .int64, isQueryable: true, isSortable: true),
            FieldSchema(name: "location", type: .location, isQueryable: true, isSortable: false),
            FieldSchema(name: "alternatenames", type: .list(.string), isQueryable: false, isSortable: false),
        ])
        #expect(try store.schemaDocument().ckdbText == Self.exportedCities)
    }

    @Test("apply → export → apply is a fixed point of the store's part (types, fields, indexes)", arguments: TestEngine.allCases)
    func fixedPoint(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.apply(try CloudKitSchemaDocument(parsing: Self.cities + """

            RECORD TYPE Event (
                "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                startsAt TIMESTAMP QUERYABLE SORTABLE,
                score    NUMBER PREFERRED AS DOUBLE SORTABLE,
                photo    BYTES,
                venue    REFERENCE QUERYABLE,
                days     LIST<TIMESTAMP> QUERYABLE
            );
            """))
        let schema = try store.schema()
        let exported = try store.schemaDocument()
        try store.apply(try CloudKitSchemaDocument(parsing: exported.ckdbText))
        #expect(try store.schema() == schema)
        #expect(try store.schemaDocument() == exported)
        let event = try #require(exported.recordTypes.first { $0.name == "Event" })
        #expect(event.userFields.map { "\($0.name) \($0.type) \($0.attributesText)" } == [
            "startsAt TIMESTAMP QUERYABLE SORTABLE", "score DOUBLE SORTABLE", "photo BYTES ", "venue REFERENCE QUERYABLE",
            "days LIST<TIMESTAMP> QUERYABLE",
        ])
    }

    @Test("Applying changes index flags of existing fields", arguments: TestEngine.allCases)
    func changesIndexes(engine: TestEngine) throws {
        let store = try engine.makeStore()
        _ = try store.save([Record(recordType: "City", recordID: RecordID(recordName: "paris"), fields: ["name": "Paris", "population": 2_100_000])])
        try store.apply(try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA RECORD TYPE City (population INT64 QUERYABLE);"))
        let city = try #require(try store.schema(for: "City"))
        #expect(city.field(named: "population") == FieldSchema(name: "population", type: .int64, isQueryable: true, isSortable: false))
        #expect(city.field(named: "name") == IndexPolicy.automatic.field(named: "name", type: .string))
    }

    @Test("A field whose type would change is refused, and nothing is applied", arguments: TestEngine.allCases)
    func typeChangeRefused(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.define(RecordTypeSchema(name: "City", fields: [FieldSchema(name: "population", type: .int64)]))
        let text = """
            DEFINE SCHEMA
                RECORD TYPE Town (name STRING);
                RECORD TYPE City (
                    population DOUBLE
                );
            """
        #expect(throws: SchemaLanguageError.notApplicable(
            recordType: "City", field: "population", line: 4,
            reason: "its type would change from INT64 to DOUBLE; a field's type cannot change")
        ) {
            try store.apply(try CloudKitSchemaDocument(parsing: text))
        }
        #expect(try store.schema().map(\.name) == ["City"])
        #expect(try store.schema(for: "City")?.field(named: "population")?.type == .int64)
    }

    @Test("An ASSET field applies as a reference field without indexes (what an Asset's value is); the document still prints ASSET")
    func assetAppliesAsAReference() throws {
        let store = try TestEngine.memory.makeStore()
        let document = try CloudKitSchemaDocument(parsing: """
            DEFINE SCHEMA
                RECORD TYPE City (
                    name  STRING,
                    photo ASSET
                );
            """)
        #expect(document.ckdbText.contains("        photo ASSET\n"))
        try store.apply(document)
        let city = try #require(try store.schema().first { $0.name == "City" })
        let photo = try #require(city.field(named: "photo"))
        #expect(photo.type == .reference)
        #expect(photo.indexDescription == "")
    }

    @Test("ENCRYPTED, NUMBER without PREFERRED AS and names the store refuses are errors naming the line", arguments: [
        ("DEFINE SCHEMA RECORD TYPE T (\n  pin ENCRYPTED STRING\n);", "line 2: record type 'T', field 'pin': ENCRYPTED fields are not supported by the store yet (the document keeps and prints them, but cannot apply them)"),
        ("DEFINE SCHEMA RECORD TYPE T (\n  n NUMBER\n);", "line 2: record type 'T', field 'n': NUMBER without PREFERRED AS has no store type; write NUMBER PREFERRED AS INT64 or NUMBER PREFERRED AS DOUBLE"),
        ("DEFINE SCHEMA\nRECORD TYPE \"sqlite_master\" ();", "line 2: record type 'sqlite_master': Invalid record type name 'sqlite_master': use letters, digits and underscores, starting with a letter (at most 255), not starting with sqlite_"),
        ("DEFINE SCHEMA RECORD TYPE T (\"_x\" STRING);", "line 1: record type 'T', field '_x': Invalid field name '_x' in record type 'T': use letters, digits and underscores, starting with a letter, and not a metadata name"),
    ])
    func notApplicable(text: String, expected: String) throws {
        let store = try TestEngine.memory.makeStore()
        do {
            try store.apply(try CloudKitSchemaDocument(parsing: text))
            Issue.record("applied: \(text)")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test("A bool field exports as INT64 and applying that INT64 back keeps it bool", arguments: TestEngine.allCases)
    func boolExportsAsInt64(engine: TestEngine) throws {
        let store = try engine.makeStore()
        _ = try store.save([Record(recordType: "Task", recordID: RecordID(recordName: "a"), fields: ["done": true, "flags": [true, false]])])
        let exported = try store.schemaDocument()
        let task = try #require(exported.recordTypes.first)
        #expect(task.field(named: "done")?.type == .int64)
        #expect(task.field(named: "flags")?.type == .list(.int64))
        try store.apply(try CloudKitSchemaDocument(parsing: exported.ckdbText))
        #expect(try store.schema(for: "Task")?.field(named: "done")?.type == .bool)
        #expect(try store.schema(for: "Task")?.field(named: "flags")?.type == .list(.bool))
        #expect(try store.schemaDocument() == exported)
    }

    @Test("The async forms apply and export the same", arguments: TestEngine.allCases)
    func asyncForms(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.apply(try CloudKitSchemaDocument(parsing: Self.cities))
        #expect(try await store.schemaDocument().ckdbText == Self.exportedCities)
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import Testing

/// A store's schema limits (``SchemaLimits``), its declared record types, its siblings
/// (`Store.openSibling`) and schema deployments (`Store.deploySchema(from:)`), on every engine.
@Suite struct SchemaGrowthTests {
    static let limits = SchemaLimits(fieldsPerRecordType: 3, recordTypes: 2, changesPerSave: 4)

    static func record(_ type: String, _ name: String, _ fields: [String: Value]) -> Record {
        Record(recordType: type, recordID: RecordID(recordName: name), fields: fields)
    }

    /// A store of `engine` bounded by ``limits``.
    static func boundedStore(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        return Store(engine: store.engine, mode: .development, schemaLimits: limits)
    }

    @Test("a save past a bound is refused before anything is written; within the bounds it saves", arguments: TestEngine.allCases)
    func savesPastABoundAreRefused(engine: TestEngine) async throws {
        let store = try Self.boundedStore(engine)
        try await store.save([Self.record("City", "paris", ["name": "Paris", "population": 2_138_551])])

        // Two more fields: City would have 4, one more than 3.
        await #expect(throws: RecordStoreError.schemaLimitExceeded(.fieldsPerRecordType, recordType: "City", count: 4, limit: 3)) {
            try await store.save([Self.record("City", "lyon", ["name": "Lyon", "mayor": "G. Doucet", "area": 47.87])])
        }
        // A third record type: the store may have two.
        try await store.save([Self.record("Country", "fr", ["name": "France"])])
        await #expect(throws: RecordStoreError.schemaLimitExceeded(.recordTypes, recordType: nil, count: 3, limit: 2)) {
            try await store.save([Self.record("River", "seine", ["name": "Seine"])])
        }
        // Five schema changes in one save (a type and four fields): a save may make four.
        let wide = try engine.makeStore()
        let bounded = Store(engine: wide.engine, schemaLimits: SchemaLimits(fieldsPerRecordType: 10, recordTypes: 10, changesPerSave: 4))
        await #expect(throws: RecordStoreError.schemaLimitExceeded(.changesPerSave, recordType: nil, count: 5, limit: 4)) {
            try await bounded.save([Self.record("Note", "n1", ["a": 1, "b": 2, "c": 3, "d": 4])])
        }
        #expect(try await bounded.schema().isEmpty)

        // Nothing of the refused saves was written.
        #expect(try await store.schema().map(\.name) == ["City", "Country"])
        #expect(try await store.schema(for: "City")?.fields.map(\.name) == ["name", "population"])
        #expect(try await store.record(for: RecordID(recordName: "lyon")) == nil)
        #expect(try await store.record(for: RecordID(recordName: "seine")) == nil)
        // The same record within the bound saves; a store without limits takes anything.
        try await store.save([Self.record("City", "lyon", ["name": "Lyon", "mayor": "G. Doucet"])])
        #expect(try await store.schema(for: "City")?.fields.count == 3)
        let unbounded = Store(engine: store.engine)
        try await unbounded.save([Self.record("City", "nice", ["name": "Nice", "area": 71.92, "motto": "Nissa la bella"])])
        #expect(try await store.schema(for: "City")?.fields.count == 5)
    }

    @Test("schema definitions declare record types; saves create undeclared ones; a stored catalog from before declares every type",
          arguments: TestEngine.allCases)
    func declaredRecordTypes(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.apply(try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA\n    RECORD TYPE City (name STRING);"))
        try await store.save([Self.record("Note", "n1", ["title": "Hello"]), Self.record("City", "paris", ["name": "Paris"])])
        #expect(try await store.engine.catalog().declaredRecordTypes == ["City"])
        try await store.define(RecordTypeSchema(name: "Note"))
        #expect(try await store.engine.catalog().declaredRecordTypes == ["City", "Note"])

        var catalog = SchemaCatalog()
        catalog.recordTypes["City"] = RecordTypeSchema(name: "City")
        catalog.recordTypes["Note"] = RecordTypeSchema(name: "Note")
        let before = #"{"recordTypes":{"City":{"fields":[],"justInTimeIndexes":"automatic","name":"City"},"Note":{"fields":[],"justInTimeIndexes":"automatic","name":"Note"}}}"#
        #expect(try JSONDecoder().decode(SchemaCatalog.self, from: Data(before.utf8)).declaredRecordTypes == ["City", "Note"])
        catalog.declaredRecordTypes = ["City"]
        #expect(try JSONDecoder().decode(SchemaCatalog.self, from: JSONEncoder().encode(catalog)) == catalog)
        // While every type is declared, the catalog is stored as before.
        catalog.declaredRecordTypes = ["City", "Note"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(catalog), as: UTF8.self) == before)
    }

    @Test("a sibling store has its own records and schema, and the same name finds it again", arguments: TestEngine.allCases)
    func siblings(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.save([Self.record("City", "paris", ["population": 2_138_551])])
        let sibling = try await store.openSibling(named: "development")
        #expect(try await sibling.schema().isEmpty)
        try await sibling.save([Self.record("City", "lyon", ["population": 1.5])])
        #expect(try await store.schema(for: "City")?.field(named: "population")?.type == .int64)
        #expect(try await store.record(for: RecordID(recordName: "lyon")) == nil)
        let again = try await store.openSibling(named: "development", mode: .production)
        #expect(again.mode == .production)
        #expect(try await again.record(for: RecordID(recordName: "lyon"))?["population"] == .double(1.5))
        #expect(again.engine.secret.storeIdentifier == sibling.engine.secret.storeIdentifier)
        #expect(again.engine.secret.storeIdentifier != store.engine.secret.storeIdentifier)

        await #expect(throws: RecordStoreError.invalidStoreLocation(
            "the store 'Dev/../x' beside a \(engine.engineName) store", reason: "a sibling's name is 1 to 32 ASCII lower-case letters and digits")) {
            try await store.openSibling(named: "Dev/../x")
        }
    }

    @Test("a deployment adds the source's types, fields, indexes and relationships; a type change deploys nothing", arguments: TestEngine.allCases)
    func deployments(engine: TestEngine) async throws {
        let production = try engine.makeStore()
        try await production.define(RecordTypeSchema(name: "City", fields: [
            FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: false),
            FieldSchema(name: "population", type: .int64),
        ]))
        let development = try await production.openSibling(named: "development")
        try await development.define(RecordTypeSchema(name: "City", fields: [
            FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: true),
            FieldSchema(name: "population", type: .int64),
        ]))
        try await development.save([
            Self.record("City", "lyon", ["name": "Lyon", "mayor": "G. Doucet"]),
            Self.record("Note", "n1", ["title": "Hello", "done": true]),
        ])
        let deployed = try await production.deploySchema(from: development)
        #expect(deployed.gains.map(\.description) == [
            "+ index City.name SORTABLE",
            "+ field City.mayor STRING QUERYABLE SEARCHABLE",
            "+ record type Note (done INT64 QUERYABLE SORTABLE, title STRING QUERYABLE SEARCHABLE)",
        ])
        #expect(try await production.schema(for: "City")?.field(named: "name")?.isSortable == true)
        #expect(try await production.schema(for: "City")?.field(named: "mayor")?.type == .string)
        #expect(try await production.schema(for: "Note")?.fields.map(\.name) == ["done", "title"])
        #expect(try await production.engine.catalog().declaredRecordTypes == ["City", "Note"])
        // Deployed again: nothing to gain.
        #expect(try await production.deployment(from: development).gains.isEmpty)

        // Development widens population to DOUBLE and adds a field: production cannot take the first, so takes neither.
        try await development.save([Self.record("City", "nice", ["population": 1.5, "motto": "Nissa la bella"])])
        let before = try await production.schema()
        await #expect(throws: RecordStoreError.typeMismatch(field: "population", recordType: "City", schemaType: .int64, valueType: "double (the deployed schema's)")) {
            try await production.deploySchema(from: development)
        }
        #expect(try await production.schema() == before)
        let refused = try await production.deployment(from: development)
        #expect(refused.conflicts == [SchemaDeployment.Conflict(recordType: "City", field: "population", targetType: .int64, sourceType: .double)])
        #expect(refused.gains.map(\.description) == ["+ field City.motto STRING QUERYABLE SEARCHABLE"])
    }
}

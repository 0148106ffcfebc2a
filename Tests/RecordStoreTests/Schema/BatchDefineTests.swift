import EngineTestSupport
import Foundation
import GRDB
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@testable import RecordStorePostgres
@_spi(StorageEngine) @testable import RecordStoreSQL
import TestSupport

/// `Store.define(recordTypes:templates:progress:)`, the path of every schema file, is one call
/// of the engine's batch `define(_:templates:progress:)`, one transaction: when the engine
/// refuses a later record type or template, the earlier ones are not applied either, neither in
/// the catalog nor in the storage (no table is left behind).
///
/// The failures are found by the engine alone: the store no longer tries the batch on a copy of
/// the catalog first, so the type change of the second record type is met inside the engine's
/// transaction, after the first type's table was created in it.
@Suite("Schema: defining record types and templates in one transaction")
struct BatchDefineTests {
    /// A store of the engine, and the names of the tables its storage holds (nil for the memory
    /// engine, which has none).
    struct Subject {
        let store: Store
        let tables: @Sendable () async throws -> [String]?
    }

    /// Opens a fresh store of the engine whose tables can be listed: SQLite in a file of its
    /// own, PostgreSQL in a schema of its own.
    static func subject(_ engine: TestEngine) async throws -> Subject {
        switch engine {
        case .memory, .portableSQLite:
            return Subject(store: try engine.makeStore(), tables: { nil })
        case .sqlite:
            let path = TestEngine.temporaryDatabasePath("batch-define")
            return Subject(store: try Store.open(path: path)) {
                let queue = try DatabaseQueue(path: path)
                defer { try? queue.close() }
                return try queue.read { db in
                    try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '$%' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                }
            }
        case .postgres:
            let url = try PostgresTestServer.freshStoreURL()
            let store = try await Store.open(url: url)
            guard let postgres = store.engine as? PostgresEngine else { throw RecordStoreError.storage("not a PostgreSQL store") }
            return Subject(store: store) {
                try await postgres.read { connection in
                    var tables: [String] = []
                    try await connection.forEachRow(SQLStatement(
                        sql: "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND left(tablename, 1) <> '$' ORDER BY tablename")) { row in
                        if case .text(let name) = row.value(at: 0) { tables.append(name) }
                        return true
                    }
                    return tables
                }
            }
        }
    }

    static let city = RecordTypeSchema(name: "City", fields: [FieldSchema(name: "name", type: .string, isQueryable: true)])
    static let town = RecordTypeSchema(name: "Town", fields: [
        FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: true, isSearchable: true),
        FieldSchema(name: "aliases", type: .list(.string), isQueryable: true),
    ])

    @Test("A batch whose second record type the engine refuses applies nothing: no schema, no table", arguments: TestEngine.allCases)
    func secondRecordTypeRefused(engine: TestEngine) async throws {
        let subject = try await Self.subject(engine)
        try await subject.store.define(Self.city)
        let tablesBefore = try await subject.tables()
        // City's name is a string: the second type of the batch changes its type, which no
        // engine allows, after Town was created in the same transaction.
        let retyped = RecordTypeSchema(name: "City", fields: [FieldSchema(name: "name", type: .int64)])
        await #expect(throws: RecordStoreError.typeMismatch(field: "name", recordType: "City", schemaType: .string, valueType: FieldType.int64.description)) {
            try await subject.store.define(recordTypes: [Self.town, retyped], templates: [])
        }
        #expect(try await subject.store.schema() == [Self.city])
        #expect(try await subject.tables() == tablesBefore)
        if engine == .sqlite || engine == .postgres { #expect(tablesBefore?.contains("Town") == false) }
        // The same batch without the refused type applies.
        try await subject.store.define(recordTypes: [Self.town], templates: [])
        #expect(try await subject.store.schema().map(\.name) == ["City", "Town"])
        if engine == .sqlite || engine == .postgres { #expect(try await subject.tables()?.contains("Town") == true) }
    }

    @Test("A batch whose template the engine refuses applies none of its record types", arguments: TestEngine.allCases)
    func templateRefused(engine: TestEngine) async throws {
        let subject = try await Self.subject(engine)
        let tablesBefore = try await subject.tables()
        let template = FetchRequestTemplate(name: "Lost", recordType: "Nowhere")
        var refusal: RecordStoreError?
        do {
            try await subject.store.define(recordTypes: [Self.town], templates: [template])
        } catch {
            refusal = error
        }
        guard case .invalidFetchRequestTemplate(let name, _)? = refusal else {
            Issue.record("expected invalidFetchRequestTemplate, got \(String(describing: refusal))")
            return
        }
        #expect(name == "Lost")
        #expect(try await subject.store.schema().isEmpty)
        #expect(try await subject.store.fetchRequestTemplates().isEmpty)
        #expect(try await subject.tables() == tablesBefore)
    }

    @Test("A template may name a record type of the same batch; the one-type and one-template forms still define", arguments: TestEngine.allCases)
    func templateOfTheSameBatch(engine: TestEngine) async throws {
        let subject = try await Self.subject(engine)
        let template = FetchRequestTemplate(name: "Named", recordType: "Town", predicateFormat: "name == $NAME")
        try await subject.store.define(recordTypes: [Self.town], templates: [template])
        #expect(try await subject.store.schema() == [Self.town])
        #expect(try await subject.store.fetchRequestTemplates() == [template])
        try await subject.store.define(Self.city)
        let all = FetchRequestTemplate(name: "All", recordType: "City")
        try await subject.store.define(all)
        #expect(try await subject.store.schema() == [Self.city, Self.town])
        #expect(try await subject.store.fetchRequestTemplates() == [all, template])
        _ = try await subject.store.save([Record(recordType: "Town", recordID: RecordID(recordName: "t"), fields: ["name": .string("Lyon"), "aliases": .list([.string("Lugdunum")])])])
        let request = try await subject.store.fetchRequest(template: "Named", substitutionVariables: ["NAME": "Lyon"])
        #expect(try await subject.store.fetch(request).records.map(\.recordID.recordName) == ["t"])
    }
}

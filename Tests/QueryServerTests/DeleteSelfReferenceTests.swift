import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// CloudKit's reference action `DELETE_SELF` on `query serve` (issue #30, item 1): a record whose
/// reference carries it is deleted with the record it references, transitively, in the same
/// transaction; a `NONE` reference stays (dangling). The action is kept per reference field and
/// given back by `records/modify`, `records/lookup` and `records/query` (with `desiredKeys` too).
@Suite("DELETE_SELF references on query serve")
struct DeleteSelfReferenceTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Folder (
                name STRING QUERYABLE SORTABLE
            );
            RECORD TYPE Item (
                name STRING QUERYABLE SORTABLE,
                folder REFERENCE QUERYABLE,
                parent REFERENCE QUERYABLE
            );
            RECORD TYPE Bundle (
                name STRING QUERYABLE SORTABLE,
                folders LIST<REFERENCE> QUERYABLE
            );
        """

    static var engines: [TestEngine] { [TestEngine.sqlite] + (TestEngine.allCases.contains(.postgres) ? [TestEngine.postgres] : []) }

    /// A reference field value; `action` nil sends none (CloudKit's default, `NONE`).
    static func reference(_ name: String, _ action: String?) -> JSONValue {
        var reference: [String: JSONValue] = ["recordName": .string(name), "zoneID": ["zoneName": "_defaultZone"]]
        if let action { reference["action"] = .string(action) }
        return ["value": .object(reference), "type": "REFERENCE"]
    }

    static func list(_ names: [String], _ action: String) -> JSONValue {
        ["value": .array(names.map { ["recordName": .string($0), "action": .string(action)] }), "type": "REFERENCE_LIST"]
    }

    static func create(_ type: String, _ name: String, _ fields: [String: JSONValue] = [:]) -> JSONValue {
        var all = fields
        all["name"] = ["value": .string(name)]
        return ["operationType": "create", "record": ["recordName": .string(name), "recordType": .string(type), "fields": .object(all)]]
    }

    static func forceUpdate(_ name: String, _ fields: JSONValue) -> JSONValue {
        ["operationType": "forceUpdate", "record": ["recordName": .string(name), "fields": fields]]
    }

    static func forceDelete(_ name: String) -> JSONValue {
        ["operationType": "forceDelete", "record": ["recordName": .string(name)]]
    }

    /// The names among these that `records/lookup` finds.
    static func existing(_ names: [String], on server: ServerHarness) async throws -> [String] {
        let answer = try await server.post("records/lookup", ["records": .array(names.map { ["recordName": .string($0)] })])
        return answer.records.filter { $0["serverErrorCode"] == nil }.compactMap { $0["recordName"]?.stringValue }
    }

    @Test("deleting a record deletes the records whose references to it carry DELETE_SELF, transitively; NONE stays", arguments: engines)
    func deleteSelfCascades(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await ServerHarness.define(Self.schema, in: store)
        try await ServerHarness.withServer(store: store) { server in
            let created = try await server.post("records/modify", ["operations": [
                Self.create("Folder", "f1"), Self.create("Folder", "f2"),
                Self.create("Item", "i1", ["folder": Self.reference("f1", "DELETE_SELF")]),
                Self.create("Item", "i2", ["folder": Self.reference("f1", "NONE")]),
                Self.create("Item", "i3", ["folder": Self.reference("f1", nil)]),
                // A chain: f1 takes i1, i1 takes i4, i4 takes i5.
                Self.create("Item", "i4", ["parent": Self.reference("i1", "DELETE_SELF")]),
                Self.create("Item", "i5", ["parent": Self.reference("i4", "DELETE_SELF"), "folder": Self.reference("f2", "NONE")]),
                Self.create("Item", "i6", ["folder": Self.reference("f2", "NONE")]),
                Self.create("Bundle", "b1", ["folders": Self.list(["f2", "f1"], "DELETE_SELF")]),
                Self.create("Bundle", "b2", ["folders": Self.list(["f2", "f1"], "NONE")]),
            ]])
            #expect(created.status == 200)
            #expect(created.records.allSatisfy { $0["serverErrorCode"] == nil }, "\(created.body)")
            // The answers give each reference its action, and never the field that keeps them.
            #expect(created.records[2]["fields"]?["folder"] == [
                "value": ["recordName": "f1", "zoneID": ["zoneName": "_defaultZone"], "action": "DELETE_SELF"], "type": "REFERENCE",
            ])
            #expect(created.records[3]["fields"]?["folder"]?["value"]?["action"] == "NONE")
            #expect(created.records[4]["fields"]?["folder"]?["value"]?["action"] == "NONE")
            #expect(created.records[8]["fields"]?["folders"]?["value"]?.arrayValue?.map { $0["action"] } == ["DELETE_SELF", "DELETE_SELF"])
            #expect(created.records[9]["fields"]?["folders"]?["value"]?.arrayValue?.map { $0["action"] } == ["NONE", "NONE"])
            #expect(created.records.allSatisfy { $0["fields"]?[DeleteSelfReferences.fieldName] == nil })

            let lookup = try await server.post("records/lookup", ["records": [["recordName": "i1"], ["recordName": "i5"]]])
            #expect(lookup.records.map { $0["fields"]?["folder"]?["value"]?["action"] } == ["DELETE_SELF", "NONE"])
            #expect(lookup.records.map { $0["fields"]?["parent"]?["value"]?["action"] } == [nil, "DELETE_SELF"])
            #expect(lookup.records.allSatisfy { $0["fields"]?[DeleteSelfReferences.fieldName] == nil })
            let query = try await server.post("records/query", [
                "query": ["recordType": "Item", "sortBy": [["fieldName": "name"]]], "desiredKeys": ["folder"],
            ])
            #expect(query.recordNames == ["i1", "i2", "i3", "i4", "i5", "i6"])
            #expect(query.records.map { $0["fields"]?["folder"]?["value"]?["action"] } == ["DELETE_SELF", "NONE", "NONE", nil, "NONE", "NONE"])
            #expect(query.records.allSatisfy { $0["fields"]?[DeleteSelfReferences.fieldName] == nil })

            // An update keeps the actions of the fields it does not send, and sets those it sends.
            let renamed = try await server.post("records/modify", ["operations": [
                Self.forceUpdate("i1", ["name": ["value": "first"]]),
                Self.forceUpdate("i6", ["folder": Self.reference("f2", "DELETE_SELF")]),
            ]])
            #expect(renamed.records.map { $0["fields"]?["folder"]?["value"]?["action"] } == ["DELETE_SELF", "DELETE_SELF"])
            let touched = try await server.post("records/modify", ["operations": [Self.forceUpdate("i6", ["name": ["value": "sixth"]])]])
            #expect(touched.records.first?["fields"]?["folder"]?["value"]?["action"] == "DELETE_SELF")

            // Deleting f1 takes i1, then i4 and i5 (the chain), and b1; i2, i3 and b2 stay, their references dangling.
            let deleted = try await server.post("records/modify", ["operations": [Self.forceDelete("f1")]])
            #expect(deleted.status == 200 && deleted.records.first?["deleted"] == true, "\(deleted.body)")
            let all = ["f1", "f2", "i1", "i2", "i3", "i4", "i5", "i6", "b1", "b2"]
            #expect(try await Self.existing(all, on: server) == ["f2", "i2", "i3", "i6", "b2"])
            #expect(try await store.record(for: RecordID(recordName: "i2"))?["folder"] == .reference(Reference(recordName: "f1")))
            // Deleting f2 takes i6, whose update gave its reference DELETE_SELF; b2's references are NONE.
            _ = try await server.post("records/modify", ["operations": [Self.forceDelete("f2")]])
            #expect(try await Self.existing(all, on: server) == ["i2", "i3", "b2"])
        }
    }

    @Test("a list mixing DELETE_SELF with NONE, an unknown action and the reserved field name are BAD_REQUEST naming the field")
    func refusals() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define(Self.schema, in: store)
        try await ServerHarness.withServer(store: store) { server in
            let mixed = try await server.post("records/modify", ["operations": [
                Self.create("Bundle", "b1", ["folders": [
                    "value": [["recordName": "f1", "action": "DELETE_SELF"], ["recordName": "f2", "action": "NONE"]], "type": "REFERENCE_LIST",
                ]]),
            ]])
            #expect(mixed.status == 400 && mixed.errorCode == "BAD_REQUEST")
            #expect(mixed.body["reason"]?.stringValue?.hasPrefix(
                "operations[0].record.fields.folders: the references of a list must share their action (DELETE_SELF for every element, or for none); this list mixes DELETE_SELF with NONE") == true,
                "\(mixed.body)")
            let unknown = try await server.post("records/modify", ["operations": [
                Self.create("Item", "i1", ["folder": Self.reference("f1", "CASCADE")]),
            ]])
            #expect(unknown.errorCode == "BAD_REQUEST")
            #expect(unknown.body["reason"]?.stringValue?.hasPrefix(
                "operations[0].record.fields.folder.value.action is one of NONE, DELETE_SELF, VALIDATE, not 'CASCADE'") == true, "\(unknown.body)")
            let reserved = try await server.post("records/modify", ["operations": [
                Self.create("Item", "i1", [DeleteSelfReferences.fieldName: ["value": ["folder"], "type": "STRING_LIST"]]),
            ]])
            #expect(reserved.errorCode == "BAD_REQUEST")
            #expect(reserved.body["reason"]?.stringValue?.contains("\(DeleteSelfReferences.fieldName): the field name is reserved") == true, "\(reserved.body)")
            #expect(try await Self.existing(["b1", "i1"], on: server).isEmpty)
        }
    }
}

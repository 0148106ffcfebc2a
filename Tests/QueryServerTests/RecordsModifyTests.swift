import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// `records/modify`, `records/lookup` and `zones/*` through a real socket.
@Suite struct RecordsModifyTests {
    /// The `Note` type the tests save in the production environment (which creates no types).
    static let noteSchema = """
        DEFINE SCHEMA
            RECORD TYPE Note (
                title STRING QUERYABLE SORTABLE SEARCHABLE,
                rank INT64 QUERYABLE SORTABLE,
                "when" TIMESTAMP QUERYABLE SORTABLE,
                blob BYTES,
                ratio DOUBLE QUERYABLE SORTABLE,
                owner REFERENCE QUERYABLE,
                stamps LIST<TIMESTAMP> QUERYABLE
            );
        """

    static func create(_ name: String, _ fields: JSONValue) -> JSONValue {
        ["operationType": "create", "record": ["recordName": .string(name), "recordType": "Note", "fields": fields]]
    }

    @Test(arguments: [TestEngine.sqlite] + (TestEngine.allCases.contains(.postgres) ? [TestEngine.postgres] : []))
    func everyOperationTypeAndConflicts(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await ServerHarness.define(Self.noteSchema, in: store)
        try await ServerHarness.withServer(store: store) { server in
            let created = try await server.post("records/modify", ["operations": [
                Self.create("a", ["title": ["value": "First"], "rank": ["value": 1]]),
                Self.create("b", ["title": ["value": "Second"], "rank": ["value": 2]]),
                ["operationType": "create", "record": ["recordType": "Note", "fields": ["title": ["value": "Unnamed"]]]],
            ]])
            #expect(created.status == 200)
            #expect(created.records.count == 3)
            #expect(created.recordNames.prefix(2) == ["a", "b"])
            #expect(created.recordNames.last?.count == 36, "a generated record name")
            let tagA = try #require(created.records[0]["recordChangeTag"])

            // create over an existing record: EXISTS.
            let again = try await server.post("records/modify", ["operations": [Self.create("a", ["title": ["value": "Again"]])]])
            #expect(again.records.first?["serverErrorCode"] == "EXISTS")

            // update: only the given fields; a null clears one.
            let updated = try await server.post("records/modify", ["operations": [
                ["operationType": "update", "record": ["recordName": "a", "recordChangeTag": tagA, "fields": ["rank": ["value": 10], "title": ["value": nil]]]],
            ]])
            #expect(updated.records.first?["fields"] == ["rank": ["value": 10, "type": "INT64"]])
            // The old tag is stale now: CONFLICT, with the server's record.
            let stale = try await server.post("records/modify", ["operations": [
                ["operationType": "update", "record": ["recordName": "a", "recordChangeTag": tagA, "fields": ["rank": ["value": 11]]]],
            ]])
            #expect(stale.records.first?["serverErrorCode"] == "CONFLICT")
            #expect(stale.records.first?["serverRecord"]?["fields"]?["rank"]?["value"] == 10)
            // forceUpdate ignores the tag.
            let forced = try await server.post("records/modify", ["operations": [
                ["operationType": "forceUpdate", "record": ["recordName": "a", "fields": ["rank": ["value": 12]]]],
            ]])
            #expect(forced.records.first?["fields"]?["rank"]?["value"] == 12)
            let tagAfterForce = try #require(forced.records.first?["recordChangeTag"])

            // replace: omitted fields become null.
            let replaced = try await server.post("records/modify", ["operations": [
                ["operationType": "replace", "record": ["recordName": "a", "recordType": "Note", "recordChangeTag": tagAfterForce, "fields": ["title": ["value": "Only"]]]],
            ]])
            #expect(replaced.records.first?["fields"] == ["title": ["value": "Only", "type": "STRING"]])
            let forceReplaced = try await server.post("records/modify", ["operations": [
                ["operationType": "forceReplace", "record": ["recordName": "c", "recordType": "Note", "fields": ["title": ["value": "New by replace"]]]],
            ]])
            #expect(forceReplaced.records.first?["recordName"] == "c")

            // delete needs the current tag; forceDelete does not.
            let tagB = try #require(created.records[1]["recordChangeTag"])
            let staleDelete = try await server.post("records/modify", ["operations": [
                ["operationType": "delete", "record": ["recordName": "a", "recordChangeTag": tagA]],
            ]])
            #expect(staleDelete.records.first?["serverErrorCode"] == "CONFLICT")
            let deleted = try await server.post("records/modify", ["operations": [
                ["operationType": "delete", "record": ["recordName": "b", "recordChangeTag": tagB]],
                ["operationType": "forceDelete", "record": ["recordName": "a"]],
            ]])
            #expect(deleted.records.map { $0["deleted"] } == [true, true])

            let lookup = try await server.post("records/lookup", ["records": [["recordName": "a"], ["recordName": "c"]]])
            #expect(lookup.records.first?["serverErrorCode"] == "NOT_FOUND")
            #expect(lookup.records.last?["fields"]?["title"]?["value"] == "New by replace")
            #expect(try await store.record(for: RecordID(recordName: "b")) == nil)
        }
    }

    @Test func anAtomicRequestWithAFailureWritesNothing() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define(Self.noteSchema, in: store)
        try await ServerHarness.withServer(store: store) { server in
            _ = try await server.post("records/modify", ["operations": [Self.create("kept", ["title": ["value": "Kept"]])]])
            let answer = try await server.post("records/modify", ["operations": [
                Self.create("fresh", ["title": ["value": "Fresh"]]),
                Self.create("kept", ["title": ["value": "Duplicate"]]),
            ]])
            #expect(answer.records.map { $0["serverErrorCode"] } == ["ATOMIC_ERROR", "EXISTS"])
            #expect(try await store.record(for: RecordID(recordName: "fresh")) == nil)
            // Not atomic: each operation stands alone.
            let loose = try await server.post("records/modify", ["atomic": false, "operations": [
                Self.create("fresh", ["title": ["value": "Fresh"]]),
                Self.create("kept", ["title": ["value": "Duplicate"]]),
            ]])
            #expect(loose.records.first?["recordName"] == "fresh")
            #expect(loose.records.first?["serverErrorCode"] == nil)
            #expect(loose.records.last?["serverErrorCode"] == "EXISTS")
            #expect(try await store.record(for: RecordID(recordName: "fresh"))?["title"] == .string("Fresh"))
        }
    }

    @Test func modifyRefusesBadOperations() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define(Self.noteSchema, in: store)
        try await ServerHarness.withServer(store: store) { server in
            let tooMany = try await server.post("records/modify", ["operations": .array((0..<201).map { Self.create("n\($0)", [:]) })])
            #expect(tooMany.errorCode == "BAD_REQUEST")
            let unknown = try await server.post("records/modify", ["operations": [["operationType": "merge", "record": ["recordName": "x"]]]])
            #expect(unknown.errorCode == "BAD_REQUEST")
            let noTag = try await server.post("records/modify", ["operations": [["operationType": "update", "record": ["recordName": "x", "fields": [:]]]]])
            #expect(noTag.body["reason"]?.stringValue?.contains("recordChangeTag") == true)
            let wrongType = try await server.post("records/modify", ["operations": [Self.create("x", ["rank": ["value": "many", "type": "INT64"]])]])
            #expect(wrongType.errorCode == "BAD_REQUEST")
            #expect(wrongType.body["reason"]?.stringValue?.contains("rank") == true)
            let twice = try await server.post("records/modify", ["operations": [Self.create("x", [:]), Self.create("x", [:])]])
            #expect(twice.errorCode == "BAD_REQUEST")
            let allTypes = try await server.post("records/modify", ["operations": [Self.create("typed", [
                "when": ["value": 1_714_564_800_000, "type": "TIMESTAMP"],
                "blob": ["value": "AAEC/w==", "type": "BYTES"],
                "ratio": ["value": 0.25, "type": "DOUBLE"],
                "owner": ["value": ["recordName": "kept", "zoneID": ["zoneName": "_defaultZone"]], "type": "REFERENCE"],
                "stamps": ["value": [1000, 2000], "type": "TIMESTAMP_LIST"],
            ])]])
            let fields = try #require(allTypes.records.first?["fields"])
            #expect(fields["when"] == ["value": 1_714_564_800_000, "type": "TIMESTAMP"])
            #expect(fields["blob"] == ["value": "AAEC/w==", "type": "BYTES"])
            #expect(fields["ratio"] == ["value": 0.25, "type": "DOUBLE"])
            #expect(fields["owner"]?["value"]?["recordName"] == "kept")
            #expect(fields["stamps"] == ["value": [1000, 2000], "type": "TIMESTAMP_LIST"])
            #expect(try await store.record(for: RecordID(recordName: "typed"))?["when"] == .date(Date(timeIntervalSince1970: 1_714_564_800)))
        }
    }

    @Test func zonesAreCreatedListedLookedUpAndDeleted() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let created = try await server.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Archive"]]]]])
            #expect(created.body["zones"]?.arrayValue?.first?["zoneID"]?["zoneName"] == "Archive")
            let listed = try await server.send("GET", ServerHarness.path("zones/list"))
            #expect(listed.body["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } == ["_defaultZone", "Archive"])
            // The development environment has its own zones.
            let development = try await server.send("GET", ServerHarness.path("zones/list", environment: "development"))
            #expect(development.body["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } == ["_defaultZone"])
            _ = try await server.post("records/modify", ["zoneID": ["zoneName": "Archive"], "operations": [Self.create("old", ["title": ["value": "Old"]])]])
            let looked = try await server.post("zones/lookup", ["zones": [["zoneName": "Archive"], ["zoneName": "Missing"]]])
            #expect(looked.body["zones"]?.arrayValue?.map { $0["serverErrorCode"] } == [nil, "ZONE_NOT_FOUND"])
            let deleted = try await server.post("zones/modify", ["operations": [["operationType": "delete", "zone": ["zoneID": ["zoneName": "Archive"]]]]])
            #expect(deleted.body["zones"]?.arrayValue?.first?["deleted"] == true)
            #expect(try await store.record(for: RecordID(recordName: "old", zoneID: ZoneID(zoneName: "Archive"))) == nil)
            let slash = try await server.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "a/b"]]]]])
            #expect(slash.errorCode == "BAD_REQUEST")
        }
    }

    /// The routes write their `records` answers straight into bytes; the library's
    /// `CloudKitService.modify` and `lookup` read the same bytes back. Both spell a record, an
    /// error entry and a deletion alike.
    @Test func theServersBytesAreTheServicesJSON() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define(Self.noteSchema, in: store)
        let service = CloudKitService(store: store)
        let namespace = Namespace(environment: .production, database: .public)
        let direct = try await service.modify(["atomic": false, "operations": [
            Self.create("a", ["title": ["value": "First"], "rank": ["value": 1]]),
            Self.create("b", ["title": ["value": "Second"], "ratio": ["value": 0.5]]),
            Self.create("c", ["title": ["value": "Third"]]),
        ]], in: namespace)
        try await ServerHarness.withServer(store: store) { server in
            let served = try await server.post("records/modify", ["atomic": false, "operations": [
                Self.create("d", ["title": ["value": "Fourth"], "rank": ["value": 4]]),
                Self.create("a", ["title": ["value": "Again"]]),
                ["operationType": "forceDelete", "record": ["recordName": "c"]],
            ]])
            #expect(served.records.map { $0["serverErrorCode"] } == [nil, "EXISTS", nil])
            #expect(served.records[2] == ["recordName": "c", "deleted": true, "zoneID": ["zoneName": "_defaultZone", "ownerRecordName": "_defaultOwner"]])
            #expect(served.records[0]["fields"] == ["title": ["value": "Fourth", "type": "STRING"], "rank": ["value": 4, "type": "INT64"]])

            let lookup: JSONValue = ["records": [["recordName": "a"], ["recordName": "b"], ["recordName": "d"], ["recordName": "c"]]]
            let looked = try await server.post("records/lookup", lookup)
            #expect(looked.body["records"] == (try await service.lookup(lookup, in: namespace))["records"])
            // A saved record is answered as a lookup answers it, by either way in.
            #expect(looked.records[0] == direct["records"]?.arrayValue?[0])
            #expect(looked.records[1] == direct["records"]?.arrayValue?[1])
            #expect(looked.records[2] == served.records[0])
            #expect(looked.records[3]["serverErrorCode"] == "NOT_FOUND")
        }
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// Sharing over the wire: a `cloudkit.share` saved in the owner's private database, resolved and
/// accepted by its short GUID, and each participant's shared database answering exactly what the
/// share reaches, with the participant's permission.
@Suite struct SharingRoutesTests {
    typealias Client = WebAuthTests.SignedInClient

    static func record(_ name: String, _ type: String, title: String, parent: String? = nil) -> JSONValue {
        var record: [String: JSONValue] = ["recordName": .string(name), "recordType": .string(type), "fields": ["title": ["value": .string(title)]]]
        if let parent { record["parent"] = ["recordName": .string(parent)] }
        return .object(record)
    }

    static func create(_ records: [JSONValue], zone: String) -> JSONValue {
        ["zoneID": ["zoneName": .string(zone)], "operations": .array(records.map { ["operationType": "create", "record": $0] })]
    }

    static func share(_ name: String, root: String?, publicPermission: String = "NONE", participants: [JSONValue], operation: String = "create",
                      changeTag: String? = nil) -> JSONValue {
        var record: [String: JSONValue] = ["recordName": .string(name), "recordType": "cloudkit.share", "publicPermission": .string(publicPermission),
                                           "participants": .array(participants)]
        if let root { record["forRecord"] = ["recordName": .string(root)] }
        if let changeTag { record["recordChangeTag"] = .string(changeTag) }
        return ["operationType": .string(operation), "record": .object(record)]
    }

    static func participant(email: String? = nil, user: String? = nil, permission: String) -> JSONValue {
        var lookup: [String: JSONValue] = [:]
        if let email { lookup["emailAddress"] = .string(email) }
        if let user { lookup["userRecordName"] = .string(user) }
        return ["userIdentity": ["lookupInfo": .object(lookup)], "permission": .string(permission)]
    }

    static func query(_ type: String, zone: String, owner: String? = nil) -> JSONValue {
        var zoneID: [String: JSONValue] = ["zoneName": .string(zone)]
        if let owner { zoneID["ownerRecordName"] = .string(owner) }
        return ["zoneID": .object(zoneID), "query": ["recordType": .string(type), "sortBy": [["systemFieldName": "recordName"]]]]
    }

    static func guids(_ guid: String, fetchRoot: Bool = false) -> JSONValue {
        ["shortGUIDs": [["value": .string(guid), "shouldFetchRootRecord": .bool(fetchRoot)]]]
    }

    @Test("A record hierarchy shared read-only and read-write, accepted, read, written, and a participant removed", arguments: TestEngine.allCases)
    func recordShare(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let (ada, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (bob, bobToken) = try await WebAuthTests.signIn(store, email: "bob@example.org", givenName: "Bob")
        let (carol, carolToken) = try await WebAuthTests.signIn(store, email: "carol@example.org", givenName: "Carol")
        let (dave, daveToken) = try await WebAuthTests.signIn(store, email: "dave@example.org", givenName: "Dave")
        try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            let adaClient = Client(server, token: adaToken)
            let bobClient = Client(server, token: bobToken)
            let carolClient = Client(server, token: carolToken)
            let daveClient = Client(server, token: daveToken)
            // Ada's zone: a trip with a stop under it, and a record outside the hierarchy.
            let zone = try await adaClient.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Trips"]]]]], database: "private")
            #expect(zone.status == 200)
            let saved = try await adaClient.post("records/modify", Self.create([
                Self.record("paris", "Trip", title: "Paris"),
                Self.record("louvre", "Stop", title: "Louvre", parent: "paris"),
                Self.record("diary", "Trip", title: "Private diary"),
            ], zone: "Trips"), database: "private")
            #expect(saved.recordNames == ["paris", "louvre", "diary"])
            #expect(saved.records[1]["parent"]?["recordName"]?.stringValue == "paris")

            // The share: Bob by email, read-only; Carol by user record name, read-write.
            let shared = try await adaClient.post("records/modify", ["zoneID": ["zoneName": "Trips"], "operations": [
                Self.share("paris-share", root: "paris", participants: [
                    Self.participant(email: "bob@example.org", permission: "READ_ONLY"),
                    Self.participant(user: carol.userRecordName, permission: "READ_WRITE"),
                ]),
            ]], database: "private")
            #expect(shared.status == 200)
            let shareRecord = try #require(shared.records.first)
            #expect(shareRecord["recordType"]?.stringValue == "cloudkit.share")
            #expect(shareRecord["forRecord"]?["recordName"]?.stringValue == "paris")
            #expect(shareRecord["participants"]?.arrayValue?.map { $0["type"]?.stringValue ?? "" } == ["OWNER", "PRIVATE_USER", "PRIVATE_USER"])
            #expect(shareRecord["participants"]?.arrayValue?.map { $0["acceptanceStatus"]?.stringValue ?? "" } == ["ACCEPTED", "PENDING", "PENDING"])
            #expect(shareRecord["owner"]?["userIdentity"]?["userRecordName"]?.stringValue == ada.userRecordName)
            let guid = try #require(shareRecord["shortGUID"]?.stringValue)
            #expect(guid.count == 22)

            // The root answers its share; the other records none.
            let looked = try await adaClient.post("records/lookup", ["zoneID": ["zoneName": "Trips"], "records": [["recordName": "paris"], ["recordName": "diary"]]], database: "private")
            #expect(looked.records[0]["share"]?["recordName"]?.stringValue == "paris-share")
            #expect(looked.records[1]["share"] == nil)

            // Bob resolves, then accepts; Carol accepts; nothing is shared with them before.
            #expect(try await bobClient.post("zones/list", [:], database: "shared").body["zones"]?.arrayValue?.count == 0)
            let resolved = try await bobClient.post("records/resolve", Self.guids(guid, fetchRoot: true), database: "public")
            let result = try #require(resolved.body["results"]?.arrayValue?.first)
            #expect(result["rootRecordName"]?.stringValue == "paris")
            #expect(result["rootRecord"]?["fields"]?["title"]?["value"]?.stringValue == "Paris")
            #expect(result["participantStatus"]?.stringValue == "PENDING")
            #expect(result["participantPermission"]?.stringValue == "READ_ONLY")
            #expect(result["zoneID"]?["ownerRecordName"]?.stringValue == ada.userRecordName)
            let accepted = try await bobClient.post("records/accept", Self.guids(guid), database: "public")
            #expect(accepted.body["results"]?.arrayValue?.first?["participantStatus"]?.stringValue == "ACCEPTED")
            #expect(try await carolClient.post("records/accept", Self.guids(guid), database: "public").body["results"]?.arrayValue?.first?["participantStatus"]?.stringValue == "ACCEPTED")
            // Dave was not invited and the share is not public.
            #expect(try await daveClient.post("records/accept", Self.guids(guid), database: "public").body["results"]?.arrayValue?.first?["serverErrorCode"]?.stringValue == "ACCESS_DENIED")

            // Bob's shared database: Ada's zone, and the hierarchy only.
            let zones = try await bobClient.post("zones/list", [:], database: "shared")
            #expect(zones.body["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"]?.stringValue ?? "" } == ["Trips"])
            #expect(zones.body["zones"]?.arrayValue?.first?["zoneID"]?["ownerRecordName"]?.stringValue == ada.userRecordName)
            let trips = try await bobClient.post("records/query", Self.query("Trip", zone: "Trips", owner: ada.userRecordName), database: "shared")
            #expect(trips.recordNames == ["paris"])
            #expect(trips.records.first?["zoneID"]?["ownerRecordName"]?.stringValue == ada.userRecordName)
            #expect(try await bobClient.post("records/query", Self.query("Stop", zone: "Trips"), database: "shared").recordNames == ["louvre"])
            let lookup = try await bobClient.post("records/lookup", ["zoneID": ["zoneName": "Trips"], "records": [["recordName": "louvre"], ["recordName": "diary"]]], database: "shared")
            #expect(lookup.records.map { $0["recordType"]?.stringValue ?? $0["serverErrorCode"]?.stringValue ?? "" } == ["Stop", "NOT_FOUND"])

            // Bob may not write; Carol may, under the shared root only.
            let bobWrite = try await bobClient.post("records/modify", ["zoneID": ["zoneName": "Trips"], "operations": [
                ["operationType": "forceUpdate", "record": ["recordName": "louvre", "fields": ["title": ["value": "Bob was here"]]]],
            ]], database: "shared")
            #expect(bobWrite.records.first?["serverErrorCode"]?.stringValue == "ACCESS_DENIED")
            let carolWrite = try await carolClient.post("records/modify", Self.create([Self.record("orsay", "Stop", title: "Orsay", parent: "paris")], zone: "Trips"), database: "shared")
            #expect(carolWrite.recordNames == ["orsay"])
            #expect(carolWrite.records.first?["modified"]?["userRecordName"]?.stringValue == carol.userRecordName)
            let outside = try await carolClient.post("records/modify", Self.create([Self.record("nice", "Trip", title: "Nice")], zone: "Trips"), database: "shared")
            #expect(outside.records.first?["serverErrorCode"]?.stringValue == "ACCESS_DENIED")
            // Carol's stop is in Ada's zone, Carol its modifier.
            let adaSees = try await adaClient.post("records/query", Self.query("Stop", zone: "Trips"), database: "private")
            #expect(adaSees.recordNames == ["louvre", "orsay"])
            #expect(adaSees.records.last?["modified"]?["userRecordName"]?.stringValue == carol.userRecordName)

            // Both sync the shared database: the zone, then Carol's stop among its changes.
            let carolDatabase = try await carolClient.post("changes/database", [:], database: "shared")
            #expect(carolDatabase.body["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"]?.stringValue ?? "" } == ["Trips"])
            let carolToken = try #require(carolDatabase.body["syncToken"]?.stringValue)
            let bobChanges = try await bobClient.post("changes/zone", ["zones": [["zoneID": ["zoneName": "Trips", "ownerRecordName": .string(ada.userRecordName)]]]],
                                                      database: "shared")
            let bobZone = try #require(bobChanges.body["zones"]?.arrayValue?.first, "\(bobChanges.status) \(bobChanges.body)")
            #expect(bobZone["records"]?.arrayValue?.compactMap { $0["recordName"]?.stringValue }.sorted() == ["louvre", "orsay", "paris", "paris-share"])
            #expect(bobZone["zoneID"]?["ownerRecordName"]?.stringValue == ada.userRecordName)
            let bobZoneToken = try #require(bobZone["syncToken"]?.stringValue)

            // Ada removes Carol: her next request finds no such zone; Bob keeps reading.
            let current = try #require(try await adaClient.post("records/lookup", ["zoneID": ["zoneName": "Trips"], "records": [["recordName": "paris-share"]]],
                                                                database: "private").records.first)
            #expect(current["recordType"]?.stringValue == "cloudkit.share")
            let removed = try await adaClient.post("records/modify", ["zoneID": ["zoneName": "Trips"], "operations": [
                Self.share("paris-share", root: "paris", participants: [Self.participant(email: "bob@example.org", permission: "READ_ONLY")],
                           operation: "update", changeTag: current["recordChangeTag"]?.stringValue),
            ]], database: "private")
            #expect(removed.records.first?["participants"]?.arrayValue?.count == 2)
            let carolAfter = try await carolClient.post("records/query", Self.query("Stop", zone: "Trips"), database: "shared")
            #expect(carolAfter.status == 404)
            #expect(carolAfter.errorCode == "ZONE_NOT_FOUND")
            #expect(try await bobClient.post("records/query", Self.query("Stop", zone: "Trips"), database: "shared").recordNames == ["louvre", "orsay"])
            // Carol's sync reports the zone gone; Bob's reports the share's change only.
            let carolGone = try await carolClient.post("changes/database", ["syncToken": .string(carolToken)], database: "shared")
            #expect(carolGone.body["zones"]?.arrayValue?.map { $0["deleted"]?.boolValue ?? false } == [true])
            #expect(carolGone.body["zones"]?.arrayValue?.first?["zoneID"]?["zoneName"]?.stringValue == "Trips")
            let bobSince = try await bobClient.post("records/changes", ["zoneID": ["zoneName": "Trips"], "syncToken": .string(bobZoneToken)], database: "shared")
            #expect(bobSince.recordNames == ["paris-share"])
            #expect(bobSince.records.first?["recordType"]?.stringValue == "cloudkit.share")

            // Made public read-only, the share takes Dave as a public user.
            let latest = try #require(removed.records.first?["recordChangeTag"]?.stringValue)
            let opened = try await adaClient.post("records/modify", ["zoneID": ["zoneName": "Trips"], "operations": [
                Self.share("paris-share", root: "paris", publicPermission: "READ_ONLY",
                           participants: [Self.participant(email: "bob@example.org", permission: "READ_ONLY")], operation: "update", changeTag: latest),
            ]], database: "private")
            #expect(opened.records.first?["publicPermission"]?.stringValue == "READ_ONLY")
            let daveAccepts = try await daveClient.post("records/accept", Self.guids(guid), database: "public")
            #expect(daveAccepts.body["results"]?.arrayValue?.first?["participantType"]?.stringValue == "PUBLIC_USER")
            #expect(try await daveClient.post("records/query", Self.query("Trip", zone: "Trips"), database: "shared").recordNames == ["paris"])
            _ = dave

            // Routes the shared database does not answer say so; deleting the share unshares all.
            let unsupported = try await bobClient.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Mine"]]]]],
                                                       database: "shared")
            #expect(unsupported.status == 400)
            #expect(unsupported.body["reason"]?.stringValue?.hasPrefix("the shared database answers records/query") == true)
            let deleted = try await adaClient.post("records/modify", ["zoneID": ["zoneName": "Trips"], "operations": [
                ["operationType": "forceDelete", "record": ["recordName": "paris-share"]],
            ]], database: "private")
            #expect(deleted.records.first?["deleted"]?.boolValue == true)
            #expect(try await bobClient.post("zones/list", [:], database: "shared").body["zones"]?.arrayValue?.count == 0)
            _ = bob
        }
    }

    @Test("A zone-wide share opens every record of its zone, new ones included", arguments: TestEngine.allCases)
    func zoneShare(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let (_, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (bob, bobToken) = try await WebAuthTests.signIn(store, email: "bob@example.org", givenName: "Bob")
        try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            let adaClient = Client(server, token: adaToken)
            let bobClient = Client(server, token: bobToken)
            _ = try await adaClient.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Notes"]]]]], database: "private")
            _ = try await adaClient.post("records/modify", Self.create([Self.record("n1", "Note", title: "One"), Self.record("n2", "Note", title: "Two")],
                                                                     zone: "Notes"), database: "private")
            let shared = try await adaClient.post("records/modify", ["zoneID": ["zoneName": "Notes"], "operations": [
                Self.share("cloudkit.zoneshare", root: nil, participants: [Self.participant(user: bob.userRecordName, permission: "READ_WRITE")]),
            ]], database: "private")
            let guid = try #require(shared.records.first?["shortGUID"]?.stringValue)
            #expect(shared.records.first?["forRecord"] == nil)
            _ = try await bobClient.post("records/accept", Self.guids(guid), database: "public")
            #expect(try await bobClient.post("records/query", Self.query("Note", zone: "Notes"), database: "shared").recordNames == ["n1", "n2"])
            let written = try await bobClient.post("records/modify", Self.create([Self.record("n3", "Note", title: "Three")], zone: "Notes"), database: "shared")
            #expect(written.recordNames == ["n3"])
            #expect(try await adaClient.post("records/query", Self.query("Note", zone: "Notes"), database: "private").recordNames == ["n1", "n2", "n3"])
            // A participant does not save or delete the share.
            let refused = try await bobClient.post("records/modify", ["zoneID": ["zoneName": "Notes"], "operations": [
                ["operationType": "forceDelete", "record": ["recordName": "cloudkit.zoneshare"]],
            ]], database: "shared")
            #expect(refused.records.first?["serverErrorCode"]?.stringValue == "ACCESS_DENIED")
        }
    }

    @Test("The schema, predicate checks and query plans answer the shared database", arguments: [TestEngine.sqlite])
    func schemaAndPlans(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let (_, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (bob, bobToken) = try await WebAuthTests.signIn(store, email: "bob@example.org", givenName: "Bob")
        try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            let adaClient = Client(server, token: adaToken)
            let bobClient = Client(server, token: bobToken)
            _ = try await adaClient.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Trips"]]]]], database: "private")
            _ = try await adaClient.post("records/modify", Self.create([Self.record("paris", "Trip", title: "Paris")], zone: "Trips"), database: "private")
            let shared = try await adaClient.post("records/modify", ["zoneID": ["zoneName": "Trips"], "operations": [
                Self.share("paris-share", root: "paris", participants: [Self.participant(user: bob.userRecordName, permission: "READ_ONLY")]),
            ]], database: "private")
            _ = try await bobClient.post("records/accept", Self.guids(try #require(shared.records.first?["shortGUID"]?.stringValue)), database: "public")

            // The types of the zones shared with Bob (Trip, only in Ada's private zone) are his schema's.
            let schema = try await bobClient.post("schema", [:], database: "shared")
            #expect(schema.body["recordTypes"]?.arrayValue?.compactMap { $0["recordType"]?.stringValue } == ["Trip"])
            let check = try await bobClient.post("predicates/check", ["predicate": "title BEGINSWITH 'P'", "recordType": "Trip"], database: "shared")
            #expect(check.body["valid"] == true)
            // The plan of the query run in Ada's zone.
            let plan = try await bobClient.post("records/explain", Self.query("Trip", zone: "Trips"), database: "shared")
            #expect(plan.status == 200)
            #expect(plan.body["engine"] == "sqlite")
            let elsewhere = try await bobClient.post("records/explain", Self.query("Trip", zone: "Notes"), database: "shared")
            #expect(elsewhere.errorCode == "ZONE_NOT_FOUND")
        }
    }
}

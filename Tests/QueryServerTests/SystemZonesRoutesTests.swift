import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// The store's own zones (its security policy and role holders) are no client's: not listed,
/// not read, not written; and no client saves a record of the store's own types anywhere.
@Suite struct SystemZonesRoutesTests {
    @Test("A signed-in user neither sees, reads nor writes the store's security zone", arguments: TestEngine.allCases)
    func securityZoneIsClosed(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await ServerHarness.define(SecurityRolesTests.moderatedNotes, in: store)
        let (bobUser, bobToken) = try await WebAuthTests.signIn(store, email: "bob@example.org", givenName: "Bob")
        try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            let bob = WebAuthTests.SignedInClient(server, token: bobToken)
            let zones = try await bob.post("zones/list", [:], database: "public", environment: "production")
            #expect(zones.body["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } == ["_defaultZone"])
            let read = try await bob.post("records/query", ["zoneID": ["zoneName": "security"], "query": ["recordType": "QuerySecurityPolicy"]],
                                          database: "public", environment: "production")
            #expect(read.status == 400)
            #expect(read.body["reason"]?.stringValue == "zone name 'security' names a zone the store keeps for itself")
            let write = try await bob.post("records/modify", ["zoneID": ["zoneName": "security"], "operations": [
                ["operationType": "create", "record": ["recordType": "Note", "recordName": "x"]],
            ]], database: "public", environment: "production")
            #expect(write.status == 400)
            let ownType = try await bob.post("records/modify", ["operations": [
                ["operationType": "create", "record": ["recordType": "QuerySecurityRoleMember", "recordName": "x", "fields": ["user": ["value": "bob"]]]],
            ]], database: "private", environment: "production")
            #expect(ownType.status == 400)
            #expect(ownType.body["reason"]?.stringValue == "operations[0].record.recordType 'QuerySecurityRoleMember' is a type the store keeps for itself")
            // Bob holds no role.
            #expect(try await store.roles(of: bobUser.userRecordName).isEmpty)
        }
    }
}

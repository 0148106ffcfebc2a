import EngineTestSupport
import Foundation
@testable import QueryServer
import RecordStore
import Testing

/// F1: key IDs that differ only in characters other than letters and digits have private
/// databases of their own; stores made before keep their data.
@Suite struct PrivateDatabaseKeyTests {
    @Test func keyIDsThatFoldedAlikeNoLongerShareAPrivateDatabase() async throws {
        let dash = TestKey()
        let underscore = TestKey()
        var credentials = ServerCredentials()
        for (keyID, key) in [("k-1", dash), ("k_1", underscore)] {
            let path = TestEngine.temporaryDatabasePath("key") + ".pem"
            try key.publicPEM().write(toFile: path, atomically: true, encoding: .utf8)
            try credentials.addKey("\(keyID)=\(path)")
        }
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define("DEFINE SCHEMA RECORD TYPE Note (text STRING QUERYABLE);", in: store)
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials, rateLimit: 0)
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let modifyPath = ServerHarness.path("records/modify", database: "private")
            let create = #"{"operations": [{"operationType": "create", "record": {"recordName": "secret", "recordType": "Note", "fields": {"text": {"value": "k-1's"}}}}]}"#
            let created = try await server.send("POST", modifyPath, body: create,
                                                headers: try AuthenticationTests.signedHeaders(dash, keyID: "k-1", body: create, path: modifyPath))
            #expect(created.recordNames == ["secret"])
            let queryPath = ServerHarness.path("records/query", database: "private")
            let body = #"{"query": {"recordType": "Note"}}"#
            let owner = try await server.send("POST", queryPath, body: body,
                                              headers: try AuthenticationTests.signedHeaders(dash, keyID: "k-1", body: body, path: queryPath))
            #expect(owner.recordNames == ["secret"])
            let other = try await server.send("POST", queryPath, body: body,
                                              headers: try AuthenticationTests.signedHeaders(underscore, keyID: "k_1", body: body, path: queryPath))
            #expect(other.status == 200)
            #expect(other.recordNames == [])
        }
        let zones = try await store.zones().map(\.zoneName)
        #expect(zones.contains("private/k_2D1/_defaultZone"))
        #expect(zones.contains("private/k_5F1/_defaultZone"))
        #expect(!zones.contains { $0.hasPrefix("private/k_1/") })
    }

    @Test func userNamesAreOneToOne() {
        #expect(PrivateDatabaseUser.name(keyID: "k-1") == "k_2D1")
        #expect(PrivateDatabaseUser.name(keyID: "k_1") == "k_5F1")
        #expect(PrivateDatabaseUser.name(keyID: "2f1bA9") == "2f1bA9")
        #expect(PrivateDatabaseUser.name(keyID: "é") == "_C3_A9")
        #expect(PrivateDatabaseUser.name(keyID: "a/b") == "a_2Fb")
        #expect(PrivateDatabaseUser.legacyName(keyID: "k-1") == "k_1")
    }

    @Test func aKeyWhoseDataWasStoredUnderItsFoldedNameKeepsIt() {
        let stored = [ZoneID(zoneName: "private/k_1/_defaultZone"), ZoneID(zoneName: "subscriptions/private/k_1/")]
        // One key folds to k_1: it keeps its data there.
        #expect(PrivateDatabaseUser.resolve(keyIDs: ["k-1", "abc"], storedZones: stored) == ["k-1": "k_1", "abc": "abc"])
        // Two keys fold to k_1: neither may read what one of them stored.
        #expect(PrivateDatabaseUser.resolve(keyIDs: ["k-1", "k.1"], storedZones: stored) == ["k-1": "k_2D1", "k.1": "k_2E1"])
        // Nothing stored under the folded name: the one-to-one name.
        #expect(PrivateDatabaseUser.resolve(keyIDs: ["k-1"], storedZones: []) == ["k-1": "k_2D1"])
    }

    /// The records an older server stored under a folded name stay there (never moved): the key
    /// that alone folds to it reads them, and once a second key that folds alike is configured,
    /// neither does, and the records are still where they were.
    @Test func dataUnderAFoldedNameStaysWhereItIsAndIsReadOnlyWhileOneKeyFoldsToIt() async throws {
        let store = try TestEngine.sqlite.makeStore()
        let legacyZone = ZoneID(zoneName: "private/k_1/_defaultZone")
        try await store.createZone(legacyZone)
        _ = try await store.save([Record(recordType: "Note", recordID: RecordID(recordName: "old", zoneID: legacyZone), fields: ["text": "stored by an older server"])])
        let dash = TestKey()
        let dot = TestKey()
        func credentials(_ keys: [(String, TestKey)]) throws -> ServerCredentials {
            var credentials = ServerCredentials()
            for (keyID, key) in keys {
                let path = TestEngine.temporaryDatabasePath("key") + ".pem"
                try key.publicPEM().write(toFile: path, atomically: true, encoding: .utf8)
                try credentials.addKey("\(keyID)=\(path)")
            }
            return credentials
        }
        let queryPath = ServerHarness.path("records/query", database: "private")
        let body = #"{"query": {"recordType": "Note"}}"#
        let alone = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: try credentials([("k-1", dash)]), rateLimit: 0)
        try await ServerHarness.withServer(store: store, configuration: alone) { server in
            let answer = try await server.send("POST", queryPath, body: body,
                                               headers: try AuthenticationTests.signedHeaders(dash, keyID: "k-1", body: body, path: queryPath))
            #expect(answer.recordNames == ["old"])
        }
        let both = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: try credentials([("k-1", dash), ("k.1", dot)]), rateLimit: 0)
        try await ServerHarness.withServer(store: store, configuration: both) { server in
            for (keyID, key) in [("k-1", dash), ("k.1", dot)] {
                let answer = try await server.send("POST", queryPath, body: body,
                                                   headers: try AuthenticationTests.signedHeaders(key, keyID: keyID, body: body, path: queryPath))
                #expect(answer.status == 200)
                #expect(answer.recordNames == [], "\(keyID)")
            }
        }
        #expect(try await store.record(for: RecordID(recordName: "old", zoneID: legacyZone))?["text"] == "stored by an older server")
    }
}

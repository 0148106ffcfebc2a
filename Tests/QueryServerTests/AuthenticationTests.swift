import Crypto
import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// Server-to-server keys, API tokens and rate limits, through a real socket.
/// A P-256 key the tests sign with, kept as its raw bytes (the key type is not Sendable).
struct TestKey: Sendable {
    let raw = P256.Signing.PrivateKey().rawRepresentation
    func privateKey() throws -> P256.Signing.PrivateKey { try P256.Signing.PrivateKey(rawRepresentation: raw) }
    func publicPEM() throws -> String { try privateKey().publicKey.pemRepresentation }
}

@Suite struct AuthenticationTests {
    static let keyID = "d7a4c2b1e0f9"
    static let token = "read-only-token-1"

    /// A server configuration with one key (its public key read from a PEM file) and one token.
    static func configuration(_ key: TestKey, rateLimit: Double = 0, rateBurst: Double = 1) throws -> CloudKitServer.Configuration {
        let path = TestEngine.temporaryDatabasePath("key") + ".pem"
        try key.publicPEM().write(toFile: path, atomically: true, encoding: .utf8)
        var credentials = ServerCredentials()
        try credentials.addKey("\(keyID)=\(path)")
        credentials.apiTokens = [token]
        return CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials, rateLimit: rateLimit, rateBurst: rateBurst)
    }

    /// The three headers of a signed request, as CloudKit's clients make them.
    static func signedHeaders(_ key: TestKey, keyID: String = keyID, body: String, path: String, date: Date = Date(), stamp: String? = nil) throws -> [String: String] {
        let formatter = ISO8601DateFormatter()
        let stamp = stamp ?? formatter.string(from: date)
        let digest = Data(SHA256.hash(data: Data(body.utf8))).base64EncodedString()
        let signature = try key.privateKey().signature(for: Data("\(stamp):\(digest):\(path)".utf8))
        return [
            "X-Apple-CloudKit-Request-KeyID": keyID,
            "X-Apple-CloudKit-Request-ISO8601Date": stamp,
            "X-Apple-CloudKit-Request-SignatureV1": signature.derRepresentation.base64EncodedString(),
        ]
    }

    static let queryBody = #"{"query": {"recordType": "City", "sortBy": [{"systemFieldName": "recordName"}]}}"#

    @Test func signedRequestsPassAndEveryForgeryIsRefused() async throws {
        let key = TestKey()
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(key)) { server in
            let path = ServerHarness.path("records/query")
            let unsigned = try await server.send("POST", path, body: Self.queryBody)
            #expect(unsigned.status == 421)
            #expect(unsigned.errorCode == "AUTHENTICATION_REQUIRED")

            let signed = try await server.send("POST", path, body: Self.queryBody, headers: try Self.signedHeaders(key, body: Self.queryBody, path: path))
            #expect(signed.status == 200)
            #expect(signed.records.count == 12)

            // The body changed after signing.
            let altered = try await server.send("POST", path, body: Self.queryBody.replacingOccurrences(of: "City", with: "Town"),
                                                headers: try Self.signedHeaders(key, body: Self.queryBody, path: path))
            #expect(altered.errorCode == "AUTHENTICATION_FAILED")
            #expect(altered.status == 401)
            // Signed for another path.
            let moved = try await server.send("POST", path, body: Self.queryBody,
                                              headers: try Self.signedHeaders(key, body: Self.queryBody, path: ServerHarness.path("records/lookup")))
            #expect(moved.errorCode == "AUTHENTICATION_FAILED")
            // A date ten minutes old: a replay.
            let stale = try await server.send("POST", path, body: Self.queryBody,
                                              headers: try Self.signedHeaders(key, body: Self.queryBody, path: path, date: Date().addingTimeInterval(-600)))
            #expect(stale.errorCode == "AUTHENTICATION_FAILED")
            #expect(stale.body["reason"]?.stringValue?.contains("clock") == true)
            // Another key under this key ID, and an unknown key ID.
            let wrongKey = try await server.send("POST", path, body: Self.queryBody,
                                                 headers: try Self.signedHeaders(TestKey(), body: Self.queryBody, path: path))
            #expect(wrongKey.errorCode == "AUTHENTICATION_FAILED")
            let unknownID = try await server.send("POST", path, body: Self.queryBody,
                                                  headers: try Self.signedHeaders(key, keyID: "someone-else", body: Self.queryBody, path: path))
            #expect(unknownID.errorCode == "AUTHENTICATION_FAILED")
            var garbled = try Self.signedHeaders(key, body: Self.queryBody, path: path)
            garbled["X-Apple-CloudKit-Request-SignatureV1"] = "not base64 at all"
            #expect(try await server.send("POST", path, body: Self.queryBody, headers: garbled).errorCode == "AUTHENTICATION_FAILED")
        }
    }

    /// The date header as CloudKit's clients write it, in UTC or with an offset, is read as the
    /// same instant; what is not such a date (fractions of a second, text after it, a lower-case
    /// zone), or a date too far from the server's clock, is refused.
    @Test func theSignedDateIsReadInEachISO8601Form() async throws {
        let key = TestKey()
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(key)) { server in
            let path = ServerHarness.path("records/query")
            let now = Date()
            let utc = ISO8601DateFormatter()
            let offset = ISO8601DateFormatter()
            offset.timeZone = TimeZone(secondsFromGMT: 2 * 3600)
            for stamp in [utc.string(from: now), offset.string(from: now)] {
                let answer = try await server.send("POST", path, body: Self.queryBody, headers: try Self.signedHeaders(key, body: Self.queryBody, path: path, stamp: stamp))
                #expect(answer.status == 200, "\(stamp)")
            }
            let notADate = "X-Apple-CloudKit-Request-ISO8601Date is not an ISO 8601 date such as 2026-11-23T10:00:00Z"
            let stamp = utc.string(from: now)
            let refusals = [
                "yesterday": notADate,
                stamp.replacingOccurrences(of: "Z", with: ".250Z"): notADate,
                stamp + " and more": notADate,
                stamp.replacingOccurrences(of: "Z", with: "z"): notADate,
                utc.string(from: now.addingTimeInterval(-3600)): "the request's date is more than 300 seconds from the server's clock",
            ]
            for (stamp, reason) in refusals {
                let answer = try await server.send("POST", path, body: Self.queryBody, headers: try Self.signedHeaders(key, body: Self.queryBody, path: path, stamp: stamp))
                #expect(answer.status == 401, "\(stamp)")
                #expect(answer.errorCode == "AUTHENTICATION_FAILED")
                #expect(answer.body["reason"]?.stringValue == reason)
            }
        }
    }

    /// MistKit signs a request without a body over an empty body hash (`date::path`).
    @Test func mistKitStyleSigningOfABodilessGetIsAccepted() async throws {
        let key = TestKey()
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(key)) { server in
            let path = ServerHarness.path("zones/list")
            let stamp = ISO8601DateFormatter().string(from: Date())
            func headers(_ message: String) throws -> [String: String] {
                [
                    "X-Apple-CloudKit-Request-KeyID": Self.keyID,
                    "X-Apple-CloudKit-Request-ISO8601Date": stamp,
                    "X-Apple-CloudKit-Request-SignatureV1": try key.privateKey().signature(for: Data(message.utf8)).derRepresentation.base64EncodedString(),
                ]
            }
            let mistKit = try await server.send("GET", path, headers: try headers("\(stamp)::\(path)"))
            #expect(mistKit.status == 200)
            #expect(mistKit.body["zones"]?.arrayValue?.first?["zoneID"]?["zoneName"] == "_defaultZone")
            let hashed = try await server.send("GET", path, headers: try Self.signedHeaders(key, body: "", path: path))
            #expect(hashed.status == 200)
            // The empty hash stands for an empty body only.
            let body = #"{"zones": [{"zoneName": "_defaultZone"}]}"#
            let lookupPath = ServerHarness.path("zones/lookup")
            let withBody = try await server.send("POST", lookupPath, body: body, headers: try headers("\(stamp)::\(lookupPath)"))
            #expect(withBody.errorCode == "AUTHENTICATION_FAILED")
        }
    }

    @Test func aSignatureCoversThePathWithItsQueryStringAsSentOrTheBarePath() async throws {
        let key = TestKey()
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(key)) { server in
            let path = ServerHarness.path("records/query")
            // CloudKit JS signs the path with the query string it adds to every request.
            let query = "?ckjsBuildVersion=2604ProjectDev27&ckjsVersion=2.6.4&clientId=7c1d0f3e"
            let withQuery = try await server.send("POST", path + query, body: Self.queryBody,
                                                  headers: try Self.signedHeaders(key, body: Self.queryBody, path: path + query))
            #expect(withQuery.status == 200)
            #expect(withQuery.records.count == 12)
            // MistKit signs the bare path, whatever the query string.
            let bare = try await server.send("POST", path + query, body: Self.queryBody, headers: try Self.signedHeaders(key, body: Self.queryBody, path: path))
            #expect(bare.status == 200)
            // A query string other than the one signed is refused.
            let altered = try await server.send("POST", path + query.replacingOccurrences(of: "2.6.4", with: "2.6.5"), body: Self.queryBody,
                                                headers: try Self.signedHeaders(key, body: Self.queryBody, path: path + query))
            #expect(altered.status == 401)
            #expect(altered.errorCode == "AUTHENTICATION_FAILED")
        }
    }

    @Test func anAPITokenWithoutAUserReadsThePublicDatabaseOnly() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(TestKey())) { server in
            let query = try await server.send("POST", ServerHarness.path("records/query") + "?ckAPIToken=\(Self.token)", body: Self.queryBody)
            #expect(query.status == 200)
            #expect(query.records.count == 12)
            let write = try await server.send("POST", ServerHarness.path("records/modify") + "?ckAPIToken=\(Self.token)",
                                              body: #"{"operations": [{"operationType": "forceDelete", "record": {"recordName": "paris"}}]}"#)
            // Writing, and the private database, need a signed-in user: CloudKit's 421 with where
            // to sign in.
            #expect(write.status == 421)
            #expect(write.errorCode == "AUTHENTICATION_REQUIRED")
            #expect(write.body["redirectURL"]?.stringValue == "http://127.0.0.1:\(server.port)/auth/signin?container=iCloud.com.example.cities")
            let privateRead = try await server.send("POST", ServerHarness.path("records/query", database: "private") + "?ckAPIToken=\(Self.token)", body: Self.queryBody)
            #expect(privateRead.status == 421)
            #expect(privateRead.errorCode == "AUTHENTICATION_REQUIRED")
            #expect(privateRead.body["redirectURL"]?.stringValue == "http://127.0.0.1:\(server.port)/auth/signin?container=iCloud.com.example.cities")
            let wrongToken = try await server.send("POST", ServerHarness.path("records/query") + "?ckAPIToken=guess", body: Self.queryBody)
            #expect(wrongToken.errorCode == "AUTHENTICATION_FAILED")
            #expect(try await store.record(for: RecordID(recordName: "paris")) != nil)
        }
    }

    @Test func eachKeyHasAPrivateDatabaseOfItsOwn() async throws {
        let first = TestKey()
        let second = TestKey()
        var configuration = try Self.configuration(first)
        let secondPath = TestEngine.temporaryDatabasePath("key2") + ".pem"
        try second.publicPEM().write(toFile: secondPath, atomically: true, encoding: .utf8)
        try configuration.credentials.addKey("second=\(secondPath)")
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define("DEFINE SCHEMA RECORD TYPE Note (text STRING QUERYABLE);", in: store)
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let modifyPath = ServerHarness.path("records/modify", database: "private")
            let create = #"{"operations": [{"operationType": "create", "record": {"recordName": "diary", "recordType": "Note", "fields": {"text": {"value": "mine"}}}}]}"#
            let created = try await server.send("POST", modifyPath, body: create, headers: try Self.signedHeaders(first, body: create, path: modifyPath))
            #expect(created.recordNames == ["diary"])
            let queryPath = ServerHarness.path("records/query", database: "private")
            let body = #"{"query": {"recordType": "Note"}}"#
            let mine = try await server.send("POST", queryPath, body: body, headers: try Self.signedHeaders(first, body: body, path: queryPath))
            #expect(mine.recordNames == ["diary"])
            let theirs = try await server.send("POST", queryPath, body: body, headers: try Self.signedHeaders(second, keyID: "second", body: body, path: queryPath))
            #expect(theirs.recordNames == [])
            let publicPath = ServerHarness.path("records/query")
            let publicAnswer = try await server.send("POST", publicPath, body: body, headers: try Self.signedHeaders(first, body: body, path: publicPath))
            // The schema is the container's (as in CloudKit); the records are the database's.
            #expect(publicAnswer.status == 200)
            #expect(publicAnswer.recordNames == [])
        }
    }

    @Test func aCallerOverItsRateIsThrottled() async throws {
        let key = TestKey()
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(key, rateLimit: 0.01, rateBurst: 2)) { server in
            let path = ServerHarness.path("records/query")
            var codes: [String?] = []
            for _ in 0..<3 {
                let answer = try await server.send("POST", path, body: Self.queryBody, headers: try Self.signedHeaders(key, body: Self.queryBody, path: path))
                codes.append(answer.errorCode)
                if answer.errorCode == "THROTTLED" {
                    #expect(answer.status == 429)
                    #expect((answer.body["retryAfter"]?.integerValue ?? 0) >= 1)
                }
            }
            #expect(codes == [nil, nil, "THROTTLED"])
        }
    }

    @Test func badKeyOptionsAreClearErrors() throws {
        var credentials = ServerCredentials()
        #expect(throws: ServerCredentialError.malformedKeyOption("nokey")) { try credentials.addKey("nokey") }
        let path = TestEngine.temporaryDatabasePath("notakey") + ".pem"
        try "hello".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ServerCredentialError.notAP256Key(path: path)) { try credentials.addKey("id=\(path)") }
    }
}

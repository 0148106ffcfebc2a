import EngineTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// `assets/upload`, the upload and download URLs, `ASSETID` values in records, and `users/current`.
@Suite struct AssetRoutesTests {
    static let bytes = Data("the bytes of a file, \u{00E9}t\u{00E9} \u{1F600}".utf8)
    /// The field `Note.attachment` of record `n1` in development's default zone.
    static let noteField = AssetField(namespace: Namespace(environment: .development, database: .public), zoneName: "development/_defaultZone",
                                      recordType: "Note", recordName: "n1", fieldName: "attachment")

    /// Sends raw bytes (or nothing) to an absolute URL; the status and the body's bytes.
    static func raw(_ method: String, _ url: String, body: Data? = nil) async throws -> (status: Int, data: Data) {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// The upload URL `assets/upload` answers for one field.
    static func uploadURL(_ server: ServerHarness, environment: String = "development") async throws -> String {
        let answer = try await server.post("assets/upload", [
            "tokens": [["recordType": "Note", "fieldName": "attachment", "recordName": "n1"]],
        ], environment: environment)
        #expect(answer.status == 200)
        let token = try #require(answer.body["tokens"]?.arrayValue?.first)
        #expect(token["recordName"] == "n1")
        #expect(token["fieldName"] == "attachment")
        let url = try #require(token["url"]?.stringValue)
        #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/assets/upload/"))
        return url
    }

    /// Uploads bytes; the `singleFile` receipt.
    static func upload(_ bytes: Data, _ server: ServerHarness) async throws -> JSONValue {
        let (status, data) = try await raw("POST", try await uploadURL(server), body: bytes)
        #expect(status == 200)
        return try #require(try JSONValue(parsing: data)["singleFile"])
    }

    /// An object with one member set.
    static func setting(_ key: String, _ value: JSONValue, in object: JSONValue) -> JSONValue {
        guard case .object(var members) = object else { return object }
        members[key] = value
        return .object(members)
    }

    /// Creates the record `n1` with an asset value.
    static func createNote(_ server: ServerHarness, asset: JSONValue) async throws -> ServerHarness.Answer {
        try await server.post("records/modify", ["operations": [[
            "operationType": "create",
            "record": ["recordName": "n1", "recordType": "Note", "fields": [
                "title": ["value": "with a file"], "attachment": ["value": asset, "type": "ASSETID"],
            ]],
        ]]], environment: "development")
    }

    @Test(arguments: [TestEngine.memory, .sqlite] + (TestEngine.allCases.contains(.postgres) ? [TestEngine.postgres] : []))
    func uploadReferenceAndDownloadTheExactBytes(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let receipt = try await Self.upload(Self.bytes, server)
            let expected = Asset(bytes: Self.bytes)
            #expect(receipt["fileChecksum"] == .string(expected.fileChecksum))
            #expect(receipt["size"] == .integer(Int64(Self.bytes.count)))
            #expect(receipt["receipt"]?.stringValue?.isEmpty == false)

            let created = try await Self.createNote(server, asset: receipt)
            let saved = try #require(created.records.first)
            #expect(saved["serverErrorCode"] == nil, "\(saved)")
            let field = try #require(saved["fields"]?["attachment"])
            #expect(field["type"] == "ASSETID")
            #expect(field["value"]?["fileChecksum"] == .string(expected.fileChecksum))
            #expect(field["value"]?["size"] == .integer(Int64(Self.bytes.count)))
            let downloadURL = try #require(field["value"]?["downloadURL"]?.stringValue)
            #expect(downloadURL.hasPrefix("http://127.0.0.1:\(server.port)/assets/download/"))
            let download = try await Self.raw("GET", downloadURL)
            #expect(download.status == 200)
            #expect(download.data == Self.bytes)

            // The development store holds the asset's reference; the asset is kept for good.
            let development = try await server.developmentStore()
            let stored = try #require(try await development.record(for: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "development/_defaultZone"))))
            #expect(Asset(stored["attachment"]) == expected)
            #expect(try await store.removeUnreferencedAssets(uploadedBefore: Date().addingTimeInterval(60)) == 0)

            // records/query and records/lookup answer a downloadURL that serves the bytes.
            let query = try await server.post("records/query", ["query": ["recordType": "Note"]], environment: "development")
            let queried = try #require(query.records.first?["fields"]?["attachment"]?["value"]?["downloadURL"]?.stringValue)
            #expect(try await Self.raw("GET", queried).data == Self.bytes)
            let lookup = try await server.post("records/lookup", ["records": [["recordName": "n1"]]], environment: "development")
            let looked = try #require(lookup.records.first?["fields"]?["attachment"]?["value"])
            #expect(try await Self.raw("GET", try #require(looked["downloadURL"]?.stringValue)).data == Self.bytes)

            // What a fetched record carries saves again as it is.
            let update = try await server.post("records/modify", ["operations": [[
                "operationType": "forceUpdate",
                "record": ["recordName": "n1", "fields": ["attachment": ["value": looked, "type": "ASSETID"]]],
            ]]], environment: "development")
            #expect(update.records.first?["fields"]?["attachment"]?["value"]?["fileChecksum"] == .string(expected.fileChecksum))
        }
    }

    @Test func aChecksumOrSizeOtherThanTheReceiptsAndAForgedReceiptAreRefused() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let receipt = try await Self.upload(Self.bytes, server)
            let other = Asset(bytes: Data("other bytes".utf8))
            let wrongChecksum = Self.setting("fileChecksum", .string(other.fileChecksum), in: receipt)
            let mismatch = try await Self.createNote(server, asset: wrongChecksum)
            #expect(mismatch.records.first?["serverErrorCode"] == "BAD_REQUEST")
            #expect(mismatch.records.first?["reason"] == .string(
                "fields.attachment.value.fileChecksum '\(other.fileChecksum)' is not the checksum of the uploaded file ('\(Asset(bytes: Self.bytes).fileChecksum)', its receipt's)"))

            let wrongSize = Self.setting("size", 3, in: receipt)
            let size = try await Self.createNote(server, asset: wrongSize)
            #expect(size.records.first?["reason"] == .string(
                "fields.attachment.value.size 3 is not the size of the uploaded file (\(Self.bytes.count) bytes, its receipt's)"))

            // The receipt with one character of its signature changed.
            var altered = Array(try #require(receipt["receipt"]?.stringValue))
            altered[altered.count - 10] = altered[altered.count - 10] == "A" ? "B" : "A"
            let forged = Self.setting("receipt", .string(String(altered)), in: receipt)
            let refused = try await Self.createNote(server, asset: forged)
            #expect(refused.records.first?["serverErrorCode"] == "BAD_REQUEST")
            #expect(refused.records.first?["reason"] == "fields.attachment.value.receipt is not a receipt of this server's assets/upload: the token was not signed by this server (forged or altered)")

            let noReceipt = try await Self.createNote(server, asset: ["fileChecksum": .string(Asset(bytes: Self.bytes).fileChecksum), "size": 5])
            #expect(noReceipt.status == 400)
            #expect(noReceipt.body["reason"] == "operations[0].record.fields.attachment.value.receipt is missing: an ASSETID value needs the receipt its upload answered")

            // A reference into the assets' zone is not a way around the receipt.
            let sneaky = try await server.post("records/modify", ["operations": [[
                "operationType": "create",
                "record": ["recordName": "n2", "recordType": "Note", "fields": ["attachment": ["value": [
                    "recordName": .string("sha256-\(Asset(bytes: Self.bytes).checksumHex)-\(Self.bytes.count)"), "zoneID": ["zoneName": "$assets"],
                ], "type": "REFERENCE"]]],
            ]]], environment: "development")
            #expect(sneaky.status == 400)
            #expect(sneaky.body["reason"] == "operations[0].record.fields.attachment.value.zoneID: the zone '$assets' is reserved for assets (send an ASSETID value)")
            // A filter cannot compare assets.
            let filter = try await server.post("records/query", ["query": ["recordType": "Note", "filterBy": [[
                "comparator": "EQUALS", "fieldName": "attachment", "fieldValue": ["value": receipt, "type": "ASSETID"],
            ]]]], environment: "development")
            #expect(filter.status == 400)
            #expect(filter.body["reason"] == "query.filterBy[0].fieldValue: a filter cannot compare assets (ASSETID); test the field for presence instead")
            // Nothing was saved.
            let zone = ZoneID(zoneName: "development/_defaultZone")
            let development = try await server.developmentStore()
            #expect(try await development.record(for: RecordID(recordName: "n1", zoneID: zone)) == nil)
            #expect(try await development.record(for: RecordID(recordName: "n2", zoneID: zone)) == nil)
        }
    }

    @Test func forgedAndExpiredTokensAreRefused() async throws {
        let store = try TestEngine.memory.makeStore()
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let receipt = try await Self.upload(Self.bytes, server)
            let created = try await Self.createNote(server, asset: receipt)
            let downloadURL = try #require(created.records.first?["fields"]?["attachment"]?["value"]?["downloadURL"]?.stringValue)
            #expect(try await Self.raw("GET", downloadURL).data == Self.bytes)

            // One character of the token changed.
            let prefix = "http://127.0.0.1:\(server.port)/assets/download/"
            var token = Array(downloadURL.dropFirst(prefix.count))
            token[20] = token[20] == "A" ? "B" : "A"
            let forged = try await Self.raw("GET", prefix + String(token))
            #expect(forged.status == 401)
            let forgedError = try JSONValue(parsing: forged.data)
            #expect(forgedError["serverErrorCode"] == "AUTHENTICATION_FAILED")
            #expect(forgedError["reason"] == "the download URL is refused: the token was not signed by this server (forged or altered)")
            #expect(forgedError["uuid"]?.stringValue?.isEmpty == false)

            // Another store's token (another server's secret).
            let foreign = AssetTokens(signer: Store.inMemory().cursorSigner, lifetime: 60, receiptLifetime: 60).download(Asset(bytes: Self.bytes), in: Self.noteField)
            let other = try JSONValue(parsing: try await Self.raw("GET", prefix + foreign).data)
            #expect(other["reason"] == "the download URL is refused: the token was not signed by this server (forged or altered)")

            // An upload URL is not a download URL.
            let upload = try await Self.uploadURL(server)
            let swapped = try JSONValue(parsing: try await Self.raw("GET", prefix + upload.split(separator: "/").last.map(String.init)!).data)
            #expect(swapped["reason"] == "the download URL is refused: the token was not signed by this server (forged or altered)")

            // Expired: links this server signed an hour ago with a lifetime of a minute (made
            // here, so that no clock or machine load decides the test).
            let lastHour = Date(timeIntervalSinceNow: -3600)
            let oldTokens = AssetTokens(signer: store.cursorSigner, lifetime: 60, receiptLifetime: 60)
            let expiredDownload = prefix + oldTokens.download(Asset(bytes: Self.bytes), in: Self.noteField, now: lastHour)
            let expired = try await Self.raw("GET", expiredDownload)
            #expect(expired.status == 401)
            let expiredError = try JSONValue(parsing: expired.data)
            #expect(expiredError["serverErrorCode"] == "AUTHENTICATION_FAILED")
            #expect(expiredError["reason"] == "the download URL is refused: the token has expired")
            let uploadPrefix = "http://127.0.0.1:\(server.port)/assets/upload/"
            let expiredUploadURL = uploadPrefix + oldTokens.upload(.init(field: Self.noteField, size: nil), now: lastHour)
            let expiredUpload = try await Self.raw("POST", expiredUploadURL, body: Self.bytes)
            #expect(expiredUpload.status == 401)
            #expect(try JSONValue(parsing: expiredUpload.data)["reason"] == "the upload URL is refused: the token has expired")
        }
    }

    @Test func anUploadNoRecordReferencesIsRemovedAfterItsTime() async throws {
        let store = try TestEngine.sqlite.makeStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.assets.unreferencedLifetime = 1
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let forgotten = try await Self.upload(Self.bytes, server)
            try await Task.sleep(for: .milliseconds(2200))
            // The next upload removes what waited longer than its time.
            let other = try await Self.upload(Data("another file".utf8), server)
            let refused = try await Self.createNote(server, asset: forgotten)
            #expect(refused.records.first?["serverErrorCode"] == "BAD_REQUEST")
            #expect(refused.records.first?["reason"] == .string(
                "asset \(Asset(bytes: Self.bytes)) of record 'n1' is not stored: an upload no record references is removed after 1 seconds; upload it again"))
            // A fresh upload is saved, and kept for good.
            let saved = try await Self.createNote(server, asset: other)
            #expect(saved.records.first?["fields"]?["attachment"]?["type"] == "ASSETID")
        }
    }

    @Test func aFileOverTheSizeLimitIsRefused() async throws {
        let store = try TestEngine.memory.makeStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.assets.maximumSize = 16
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let fits = try await Self.raw("POST", try await Self.uploadURL(server), body: Data(repeating: 7, count: 16))
            #expect(fits.status == 200)
            let over = try await Self.raw("POST", try await Self.uploadURL(server), body: Data(repeating: 7, count: 17))
            #expect(over.status == 413)
            let error = try JSONValue(parsing: over.data)
            #expect(error["serverErrorCode"] == "QUOTA_EXCEEDED")
            #expect(error["reason"] == "the file is larger than 16 bytes")
        }
    }

    @Test func usersCurrentNamesEachKeyAsItsPrivateRecordsDo() async throws {
        let first = TestKey()
        let second = TestKey()
        var credentials = ServerCredentials()
        for (keyID, key) in [("key-one", first), ("key-two", second)] {
            let path = TestEngine.temporaryDatabasePath("key") + ".pem"
            try key.publicPEM().write(toFile: path, atomically: true, encoding: .utf8)
            try credentials.addKey("\(keyID)=\(path)")
        }
        credentials.apiTokens.insert("reader")
        let store = try TestEngine.sqlite.makeStore()
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials, rateLimit: 0)
        @Sendable func currentUser(_ server: ServerHarness, _ key: TestKey, _ keyID: String) async throws -> String {
            let path = ServerHarness.path("users/current")
            let answer = try await server.send("GET", path, headers: try AuthenticationTests.signedHeaders(key, keyID: keyID, body: "", path: path))
            #expect(answer.status == 200)
            return try #require(answer.body["userRecordName"]?.stringValue)
        }
        let names = try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let one = try await currentUser(server, first, "key-one")
            let two = try await currentUser(server, second, "key-two")
            #expect(one != two)
            #expect(try await currentUser(server, first, "key-one") == one)

            let modifyPath = ServerHarness.path("records/modify", environment: "development", database: "private")
            let create = #"{"operations": [{"operationType": "create", "record": {"recordName": "mine", "recordType": "Note", "fields": {"title": {"value": "one's"}}}}]}"#
            let created = try await server.send("POST", modifyPath, body: create,
                                                headers: try AuthenticationTests.signedHeaders(first, keyID: "key-one", body: create, path: modifyPath))
            #expect(created.records.first?["created"]?["userRecordName"] == .string(one))
            #expect(created.records.first?["modified"]?["userRecordName"] == .string(one))
            #expect(created.records.first?["zoneID"]?["ownerRecordName"] == "_defaultOwner")

            let token = try await server.send("GET", ServerHarness.path("users/current") + "?ckAPIToken=reader")
            #expect(token.status == 421)
            #expect(token.errorCode == "AUTHENTICATION_REQUIRED")
            return [one, two]
        }
        // Stable: the key's name is the same from another server over the store.
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let one = try await currentUser(server, first, "key-one")
            let two = try await currentUser(server, second, "key-two")
            #expect([one, two] == names)
        }
        #expect(names[0] == UserRecordName.owner(of: .private(user: "key_2Done")))
        #expect(names.allSatisfy { $0.count == 33 && $0.hasPrefix("_") && $0.dropFirst().allSatisfy(\.isHexDigit) })
    }

    @Test func usersCurrentWithoutCredentialsIsTheOneOwner() async throws {
        let store = try TestEngine.memory.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.send("GET", ServerHarness.path("users/current"))
            #expect(answer.status == 200)
            #expect(answer.body == ["userRecordName": "_defaultOwner"])
        }
    }
}

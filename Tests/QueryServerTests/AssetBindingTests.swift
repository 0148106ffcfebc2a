import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// What an upload URL, a receipt and a download URL are good for: one file, of the size declared,
/// for the field they were made for, for a limited time, and while a record holds the asset.
@Suite struct AssetBindingTests {
    static let engines = [TestEngine.memory, .sqlite] + (TestEngine.allCases.contains(.postgres) ? [TestEngine.postgres] : [])

    /// The upload URL `assets/upload` answers for one field (`recordName` empty: left out).
    static func uploadURL(
        _ server: ServerHarness, recordType: String = "Note", fieldName: String = "attachment", recordName: String = "n1", size: Int? = nil
    ) async throws -> String {
        var token: [String: JSONValue] = ["recordType": .string(recordType), "fieldName": .string(fieldName)]
        if !recordName.isEmpty { token["recordName"] = .string(recordName) }
        if let size { token["size"] = .integer(Int64(size)) }
        let answer = try await server.post("assets/upload", ["tokens": .array([.object(token)])], environment: "development")
        #expect(answer.status == 200, "\(answer.body)")
        return try #require(answer.body["tokens"]?.arrayValue?.first?["url"]?.stringValue)
    }

    /// Uploads bytes to a new URL for a field; the `singleFile` receipt.
    static func upload(_ bytes: Data, _ server: ServerHarness, recordType: String = "Note", fieldName: String = "attachment", recordName: String = "n1") async throws -> JSONValue {
        let (status, data) = try await AssetRoutesTests.raw("POST", try await uploadURL(server, recordType: recordType, fieldName: fieldName, recordName: recordName), body: bytes)
        #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
        return try #require(try JSONValue(parsing: data)["singleFile"])
    }

    /// Saves an asset value in a record's field (`forceReplace`); the answer's one record entry.
    static func save(_ asset: JSONValue, _ server: ServerHarness, recordType: String = "Note", fieldName: String = "attachment", recordName: String = "n1",
                     environment: String = "development") async throws -> JSONValue {
        let answer = try await server.post("records/modify", ["operations": [[
            "operationType": "forceReplace",
            "record": ["recordName": .string(recordName), "recordType": .string(recordType), "fields": [fieldName: ["value": asset, "type": "ASSETID"]]],
        ]]], environment: environment)
        #expect(answer.status == 200, "\(answer.body)")
        return try #require(answer.records.first)
    }

    /// The error of an answer to a URL: status, code and reason.
    static func error(_ answer: (status: Int, data: Data)) throws -> (status: Int, code: String?, reason: String?) {
        let body = try JSONValue(parsing: answer.data)
        return (answer.status, body["serverErrorCode"]?.stringValue, body["reason"]?.stringValue)
    }

    @Test(arguments: engines)
    func anUploadURLTakesOneFile(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let url = try await Self.uploadURL(server)
            let first = try await AssetRoutesTests.raw("POST", url, body: AssetRoutesTests.bytes)
            #expect(first.status == 200)
            let again = try Self.error(try await AssetRoutesTests.raw("POST", url, body: Data("other bytes".utf8)))
            #expect(again.status == 401)
            #expect(again.code == "AUTHENTICATION_FAILED")
            #expect(again.reason == "the upload URL is refused: it was already used (an upload URL takes one file; ask assets/upload for another)")
            // The first upload's receipt still saves.
            let receipt = try #require(try JSONValue(parsing: first.data)["singleFile"])
            #expect(try await Self.save(receipt, server)["fields"]?["attachment"]?["value"]?["size"] == .integer(Int64(AssetRoutesTests.bytes.count)))
        }
    }

    @Test func anUploadURLUsedAtOneServerIsRefusedAtAnotherOverTheSameStore() async throws {
        let path = TestEngine.temporaryDatabasePath("assets-two-servers")
        let first = try Store.open(path: path)
        let second = try Store.open(path: path)
        try await ServerHarness.withServer(store: first) { one in
            try await ServerHarness.withServer(store: second) { other in
                let url = try await Self.uploadURL(one)
                let token = try #require(url.split(separator: "/").last)
                #expect(try await AssetRoutesTests.raw("POST", url, body: AssetRoutesTests.bytes).status == 200)
                let elsewhere = try Self.error(try await AssetRoutesTests.raw("POST", "http://127.0.0.1:\(other.port)/assets/upload/\(token)", body: AssetRoutesTests.bytes))
                #expect(elsewhere.status == 401)
                #expect(elsewhere.reason == "the upload URL is refused: it was already used (an upload URL takes one file; ask assets/upload for another)")
            }
        }
    }

    @Test func aReceiptSavesOnlyInTheFieldItWasMadeFor() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let receipt = try await Self.upload(AssetRoutesTests.bytes, server)
            let refusals: [(recordType: String, fieldName: String, recordName: String, environment: String, reason: String)] = [
                ("Note", "cover", "n1", "development",
                 "fields.cover.value.receipt was made for Note.attachment of record 'n1', not for Note.cover of record 'n1': upload the file for this field"),
                ("Photo", "attachment", "n1", "development",
                 "fields.attachment.value.receipt was made for Note.attachment of record 'n1', not for Photo.attachment of record 'n1': upload the file for this field"),
                ("Note", "attachment", "n2", "development",
                 "fields.attachment.value.receipt was made for Note.attachment of record 'n1', not for Note.attachment of record 'n2': upload the file for this field"),
                ("Note", "attachment", "n1", "production",
                 "fields.attachment.value.receipt was made for Note.attachment of record 'n1' in another zone or database, not for Note.attachment of record 'n1': upload the file for this field"),
            ]
            for refusal in refusals {
                let answer = try await Self.save(receipt, server, recordType: refusal.recordType, fieldName: refusal.fieldName,
                                                 recordName: refusal.recordName, environment: refusal.environment)
                #expect(answer["serverErrorCode"] == "BAD_REQUEST")
                #expect(answer["reason"] == .string(refusal.reason))
            }
            let saved = try await Self.save(receipt, server)
            #expect(saved["serverErrorCode"] == nil, "\(saved)")

            // A fetched record's receipt is its own field's: it saves there again, nowhere else.
            let fetched = try #require(saved["fields"]?["attachment"]?["value"])
            #expect(try await Self.save(fetched, server)["serverErrorCode"] == nil)
            let copied = try await Self.save(fetched, server, recordName: "n2")
            #expect(copied["reason"] == "fields.attachment.value.receipt was made for Note.attachment of record 'n1', not for Note.attachment of record 'n2': upload the file for this field")

            // An upload for a record not yet named saves in that field of any record.
            let unnamed = try await Self.upload(Data("for a new record".utf8), server, recordName: "")
            #expect(try await Self.save(unnamed, server, recordName: "n7")["serverErrorCode"] == nil)
            let otherField = try await Self.save(unnamed, server, fieldName: "cover", recordName: "n8")
            #expect(otherField["reason"] == "fields.cover.value.receipt was made for Note.attachment of a new record, not for Note.cover of record 'n8': upload the file for this field")
            // Nothing refused was saved.
            let zone = ZoneID(zoneName: "development/_defaultZone")
            #expect(try await store.record(for: RecordID(recordName: "n2", zoneID: zone)) == nil)
            #expect(try await store.record(for: RecordID(recordName: "n8", zoneID: zone)) == nil)
            #expect(try await store.record(for: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "_defaultZone"))) == nil)
        }
    }

    @Test func anUploadOfAnotherSizeThanDeclaredIsRefused() async throws {
        let store = try TestEngine.memory.makeStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.assets.maximumSize = 16
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let over = try Self.error(try await AssetRoutesTests.raw("POST", try await Self.uploadURL(server, size: 5), body: Data("123456".utf8)))
            #expect(over.status == 413)
            #expect(over.code == "QUOTA_EXCEEDED")
            #expect(over.reason == "the file is larger than the 5 bytes its upload URL was made for")
            let under = try Self.error(try await AssetRoutesTests.raw("POST", try await Self.uploadURL(server, size: 5), body: Data("1234".utf8)))
            #expect(under.status == 400)
            #expect(under.code == "BAD_REQUEST")
            #expect(under.reason == "the file has 4 bytes, not the 5 its upload URL was made for")
            let exact = try await AssetRoutesTests.raw("POST", try await Self.uploadURL(server, size: 5), body: Data("12345".utf8))
            #expect(exact.status == 200)
            #expect(try JSONValue(parsing: exact.data)["singleFile"]?["size"] == 5)
            // Neither short nor long upload kept anything.
            do {
                _ = try await store.assetData(Asset(bytes: Data("1234".utf8)))
                Issue.record("a refused upload was kept")
            } catch let error as AssetError {
                #expect(error.description == "asset \(Asset(bytes: Data("1234".utf8))) is not stored")
            }

            let tooLarge = try await server.post("assets/upload", ["tokens": [["recordType": "Note", "fieldName": "attachment", "size": 17]]], environment: "development")
            #expect(tooLarge.status == 413)
            #expect(tooLarge.body["reason"] == "tokens[0].size 17 is more than the largest file this server takes (16 bytes)")
            let negative = try await server.post("assets/upload", ["tokens": [["recordType": "Note", "fieldName": "attachment", "size": -1]]], environment: "development")
            #expect(negative.status == 400)
            #expect(negative.body["reason"] == "tokens[0].size is negative")
        }
    }

    @Test func anExpiredReceiptIsRefusedOnSave() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let receipt = try await Self.upload(AssetRoutesTests.bytes, server)
            // The same upload's receipt as the server made it an hour ago, valid for a minute
            // (made here, so that no clock or machine load decides the test).
            let oldTokens = AssetTokens(signer: store.cursorSigner, lifetime: 60, receiptLifetime: 60)
            let expired = oldTokens.receipt(Asset(bytes: AssetRoutesTests.bytes), for: AssetRoutesTests.noteField, now: Date(timeIntervalSinceNow: -3600))
            let refused = try await Self.save(AssetRoutesTests.setting("receipt", .string(expired), in: receipt), server)
            #expect(refused["serverErrorCode"] == "BAD_REQUEST")
            #expect(refused["reason"] == "fields.attachment.value.receipt has expired (a receipt is valid for 1 hour): upload the file again, or fetch the record again for a fresh one")
            #expect(try await store.record(for: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "development/_defaultZone"))) == nil)
            // The receipt the upload answered is valid for an hour from now.
            #expect(try await Self.save(receipt, server)["serverErrorCode"] == nil)
        }
    }

    @Test(arguments: engines)
    func aDownloadURLStopsOnceItsRecordNoLongerHoldsTheAsset(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            // One upload for records not yet named, saved in two records.
            let receipt = try await Self.upload(AssetRoutesTests.bytes, server, recordName: "")
            let first = try #require(try await Self.save(receipt, server, recordName: "n1")["fields"]?["attachment"]?["value"]?["downloadURL"]?.stringValue)
            let second = try #require(try await Self.save(receipt, server, recordName: "n2")["fields"]?["attachment"]?["value"]?["downloadURL"]?.stringValue)
            #expect(try await AssetRoutesTests.raw("GET", first).data == AssetRoutesTests.bytes)
            #expect(try await AssetRoutesTests.raw("GET", second).data == AssetRoutesTests.bytes)

            let deleted = try await server.post("records/modify", ["operations": [["operationType": "forceDelete", "record": ["recordName": "n1"]]]],
                                                environment: "development")
            #expect(deleted.records.first?["deleted"] == true)
            let gone = try Self.error(try await AssetRoutesTests.raw("GET", first))
            #expect(gone.status == 404)
            #expect(gone.code == "NOT_FOUND")
            #expect(gone.reason == "the download URL's asset is no longer held by Note.attachment of record 'n1' (the record was deleted or its field changed)")
            // The other record still holds it.
            #expect(try await AssetRoutesTests.raw("GET", second).data == AssetRoutesTests.bytes)

            // Its field changed to another file: its old URL stops, its new one serves the new file.
            let other = Data("another file".utf8)
            let changed = try await Self.save(try await Self.upload(other, server, recordName: "n2"), server, recordName: "n2")
            let replaced = try Self.error(try await AssetRoutesTests.raw("GET", second))
            #expect(replaced.status == 404)
            #expect(replaced.reason == "the download URL's asset is no longer held by Note.attachment of record 'n2' (the record was deleted or its field changed)")
            let current = try #require(changed["fields"]?["attachment"]?["value"]?["downloadURL"]?.stringValue)
            #expect(try await AssetRoutesTests.raw("GET", current).data == other)
        }
    }
}

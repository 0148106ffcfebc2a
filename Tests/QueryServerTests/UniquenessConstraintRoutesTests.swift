import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing

/// A Core Data model's uniqueness constraints on `query serve`: `records/modify` answers a record
/// whose constrained fields another record holds with its own `BAD_REQUEST` naming both records
/// and the constraint (not `CONFLICT`, which would tell a CloudKit client that its change tag is
/// stale and that saving over the server record resolves it); nothing is written.
@Suite("Uniqueness constraints on query serve")
struct UniquenessConstraintRoutesTests {
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RecordStoreTests/Schema/Fixtures/Members.xcdatamodel").path

    static var engines: [TestEngine] { [TestEngine.sqlite] + (TestEngine.allCases.contains(.postgres) ? [TestEngine.postgres] : []) }

    static func create(_ name: String, email: String) -> JSONValue {
        ["operationType": "create", "record": ["recordName": .string(name), "recordType": "Member", "fields": ["email": ["value": .string(email)]]]]
    }

    @Test("records/modify answers a broken constraint with BAD_REQUEST", arguments: engines)
    func perRecordAnswer(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.apply(try CoreDataModelReader.read(at: Self.model))
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.post("records/modify", ["atomic": false, "operations": [
                Self.create("ada", email: "ada@example.com"),
                Self.create("new", email: "ada@example.com"),
            ]])
            #expect(answer.status == 200)
            #expect(answer.records.first?["serverErrorCode"] == nil)
            #expect(answer.records.last == [
                "recordName": "new", "serverErrorCode": "BAD_REQUEST",
                "reason": """
                    The save broke a uniqueness constraint (1551 NSManagedObjectConstraintMergeError): Member 'new' has email == "ada@example.com", as 'ada' does (uniqueness constraint email)
                    """,
            ])
            let lookup = try await server.post("records/lookup", ["records": [["recordName": "new"]]])
            #expect(lookup.records.map { $0["serverErrorCode"] } == ["NOT_FOUND"])
        }
    }
}

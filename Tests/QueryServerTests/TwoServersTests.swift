import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import RecordStorePostgres
import Testing

/// Several `query serve` processes over one PostgreSQL database act as one service: a
/// continuation marker from one continues on the other, and a write on one is read on the other.
@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
struct TwoServersTests {
    @Test func aMarkerFromOneServerContinuesOnTheOther() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let first = try await Store.open(url: url)
        let second = try await Store.open(url: url)
        _ = try await first.save(RecordsQueryTests.cities())
        try await ServerHarness.withServer(store: first) { one in
            try await ServerHarness.withServer(store: second) { other in
                let page = try await one.post("records/query", ["resultsLimit": 5, "query": ["recordType": "City", "sortBy": [["fieldName": "population"]]]])
                let marker = try #require(page.body["continuationMarker"])
                let rest = try await other.post("records/query", ["resultsLimit": 200, "continuationMarker": marker])
                #expect(page.recordNames.count == 5)
                #expect(Set(page.recordNames + rest.recordNames).count == 12)
                #expect(rest.body["continuationMarker"] == nil)
                // A write through one server is read through the other.
                _ = try await one.post("records/modify", ["operations": [
                    ["operationType": "create", "record": ["recordName": "porto", "recordType": "City", "fields": ["name": ["value": "Porto"]]]],
                ]])
                let lookup = try await other.post("records/lookup", ["records": [["recordName": "porto"]]])
                #expect(lookup.records.first?["fields"]?["name"]?["value"] == "Porto", "\(lookup.body)")
            }
        }
    }
}

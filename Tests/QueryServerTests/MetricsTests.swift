import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing
import TestSupport

/// `GET /metrics` after a known mix of requests: every count is exact.
///
/// Each server has a Prometheus registry of its own (`CloudKitServer.metricsRegistry`), which its
/// stores record to as well (`Store.recordMetrics`): tests run in parallel in one process, and
/// none bootstraps swift-metrics, so none sees another's counts.
@Suite struct MetricsTests {
    static let frenchCities = #"{"query": {"recordType": "City", "filterBy": [{"comparator": "EQUALS", "fieldName": "countrycode", "fieldValue": {"value": "FR"}}]}}"#
    static let create = #"{"operations": [{"operationType": "create", "record": {"recordType": "City", "recordName": "metz", "fields": {"name": {"value": "Metz"}, "countrycode": {"value": "FR"}}}}, {"operationType": "create", "record": {"recordType": "City", "recordName": "graz", "fields": {"name": {"value": "Graz"}, "countrycode": {"value": "AT"}}}}]}"#
    static let staleUpdate = #"{"operations": [{"operationType": "update", "record": {"recordType": "City", "recordName": "lyon", "recordChangeTag": "stale", "fields": {"name": {"value": "Lyon!"}}}}]}"#

    @Test func aKnownRequestMixIsCountedExactly() async throws {
        let store = try await RecordsQueryTests.servedStore()
        let french = RecordsQueryTests.cities().filter { $0["countrycode"] == .string("FR") }
        try await MetricsHarness.withServer(store: store) { server in
            let query = ServerHarness.path("records/query")
            let modify = ServerHarness.path("records/modify")
            var queryAnswerBytes = 0
            for _ in 0..<3 {
                let answer = try await server.fetch("POST", query, body: Self.frenchCities)
                #expect(answer.status == 200)
                queryAnswerBytes += answer.data.count
            }
            #expect(try await server.fetch("POST", modify, body: Self.create).status == 200)
            let stale = try await server.fetch("POST", modify, body: Self.staleUpdate)
            #expect(stale.status == 200)
            #expect(String(decoding: stale.data, as: UTF8.self).contains("CONFLICT"))
            #expect(try await server.fetch("GET", "/nowhere").status == 404)
            #expect(try await server.fetch("GET", "/health").status == 200)
            #expect(try await server.fetch("GET", "/health").status == 200)
            // A residual predicate (SQL reads the French cities, Swift counts their tags) through
            // the store itself: its metrics go to the server's registry too.
            let matches = try await server.store.records(
                ofType: "City", matching: FormatPredicate(format: "countrycode == 'FR' AND tags.@count > 1"))
            #expect(matches.map(\.recordID.recordName) == ["marseille", "paris"])

            let scrape = try await server.scrape()
            func requests(_ route: String, _ method: String, _ status: Int) -> Double? {
                scrape.value("query_http_requests_total", ["route": route, "method": method, "status": "\(status)"])
            }
            #expect(requests("records/query", "POST", 200) == 3, "\(scrape.text)")
            #expect(requests("records/modify", "POST", 200) == 2)
            #expect(requests("none", "GET", 404) == 1)
            #expect(requests("/health", "GET", 200) == 2)
            #expect(scrape.sum("query_http_requests_total") == 8)
            #expect(scrape.value("query_http_request_duration_seconds_count", ["route": "records/query", "method": "POST"]) == 3)
            #expect(scrape.value("query_http_request_duration_seconds_bucket", ["route": "records/query", "method": "POST", "le": "+Inf"]) == 3)
            #expect(scrape.value("query_http_request_body_bytes_total", ["route": "records/query"]) == Double(3 * Self.frenchCities.utf8.count))
            #expect(scrape.value("query_http_request_body_bytes_total", ["route": "records/modify"])
                == Double(Self.create.utf8.count + Self.staleUpdate.utf8.count))
            #expect(scrape.value("query_http_response_body_bytes_total", ["route": "records/query"]) == Double(queryAnswerBytes))
            #expect(scrape.sum("query_http_refused_requests_total") == 0)
            #expect(scrape.value("query_http_refused_requests_total", ["reason": "rate_limit"]) == 0)

            // The store: three HTTP queries of the six French cities, decided in SQL, and the
            // residual query, which read the seven French cities there are once Metz is saved,
            // and kept two.
            let production = ["engine": "sqlite", "environment": "production"]
            #expect(scrape.value("query_store_operation_duration_seconds_count", production.merging(["operation": "query"]) { $1 }) == 4)
            #expect(scrape.value("query_store_rows_returned_total", production) == Double(3 * french.count + 2))
            #expect(scrape.value("query_store_rows_read_total", production) == Double(3 * french.count + french.count + 1))
            #expect(scrape.value("query_store_residual_rows_tested_total", production) == Double(french.count + 1))
            #expect(scrape.value("query_store_residual_rows_rejected_total", production) == Double(french.count + 1 - 2))
            #expect(scrape.value("query_store_records_saved_total", production) == 2)
            #expect(scrape.value("query_store_records_deleted_total", production) == 0)
            #expect(scrape.value("query_store_conflicts_total", production) == 1)
            #expect(scrape.value("query_store_operation_errors_total", production.merging(["operation": "save"]) { $1 }) == 1)
            #expect(scrape.value("query_store_operation_duration_seconds_count", production.merging(["operation": "save"]) { $1 }) == 2)
            #expect(scrape.value("query_store_live_queries", production) == 0)
            #expect(scrape.value("query_notification_subscribers") == 0)
            #expect(scrape.value("query_notifications_sent_total") == 0)
        }
    }

    @Test func refusalsAreCountedByReasonAndTheMainPortNeedsTheToken() async throws {
        let key = TestKey()
        let store = try await RecordsQueryTests.servedStore()
        // One request of a token or key at once, then one every 1,000 seconds.
        var configuration = try AuthenticationTests.configuration(key, rateLimit: 0.001, rateBurst: 1)
        configuration.maximumBodySize = 1_000
        configuration.metrics.bearerToken = "metrics-token-1"
        try await MetricsHarness.withServer(store: store, configuration: configuration) { server in
            let query = ServerHarness.path("records/query") + "?ckAPIToken=\(AuthenticationTests.token)"
            let modify = ServerHarness.path("records/modify") + "?ckAPIToken=\(AuthenticationTests.token)"
            #expect(try await server.fetch("POST", query, body: AuthenticationTests.queryBody).status == 200)
            #expect(try await server.fetch("POST", query, body: AuthenticationTests.queryBody).status == 429)  // THROTTLED
            #expect(try await server.fetch("POST", modify, body: Self.create).status == 421)  // a token without a user does not write
            let signedPath = ServerHarness.path("records/query")
            var forged = try AuthenticationTests.signedHeaders(key, body: AuthenticationTests.queryBody, path: signedPath)
            forged["X-Apple-CloudKit-Request-SignatureV1"] = Data(repeating: 7, count: 64).base64EncodedString()
            #expect(try await server.fetch("POST", signedPath, body: AuthenticationTests.queryBody, headers: forged).status == 401)
            let large = String(repeating: " ", count: 2_000)
            #expect(try await server.fetch("POST", query, body: large).status == 413)
            // The main port answers /metrics to the bearer token only.
            #expect(try await server.fetch("GET", "/metrics").status == 401)
            #expect(try await server.fetch("GET", "/metrics", headers: ["Authorization": "Bearer wrong"]).status == 401)
            let main = try await server.fetch("GET", "/metrics", headers: ["Authorization": "Bearer metrics-token-1"])
            #expect(main.status == 200)
            let scrape = MetricsScrape(String(decoding: main.data, as: UTF8.self))
            func refused(_ reason: String) -> Double? { scrape.value("query_http_refused_requests_total", ["reason": reason]) }
            #expect(refused("rate_limit") == 1, "\(scrape.text)")
            #expect(refused("authentication") == 2)
            #expect(refused("body_too_large") == 1)
            #expect(refused("failed_authentications") == 0)
            #expect(refused("connection_cap") == 0)
            #expect(refused("stream_cap") == 0)
            #expect(scrape.sum("query_http_refused_requests_total") == 4)
            #expect(scrape.value("query_http_requests_total", ["route": "/metrics", "method": "GET", "status": "401"]) == 2)
            // The scrape that answered is counted once answered: not in its own text.
            #expect(scrape.value("query_http_requests_total", ["route": "/metrics", "method": "GET", "status": "200"]) == nil)
            #expect(scrape.sum("query_http_requests_total") == 7)
            // The metrics port answers without a token, and counts none of its own requests.
            let port = try await server.scrape()
            #expect(port.value("query_http_requests_total", ["route": "/metrics", "method": "GET", "status": "200"]) == 1)
            #expect(port.sum("query_http_requests_total") == 8)
        }
    }

    @Test func eventStreamSubscribersAndNotificationsAreCounted() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await MetricsHarness.withServer(store: store) { server in
            let subscribe = #"{"operations": [{"operationType": "create", "subscription": {"subscriptionID": "french", "subscriptionType": "query", "query": {"recordType": "City", "filterBy": [{"comparator": "EQUALS", "fieldName": "countrycode", "fieldValue": {"value": "FR"}}]}, "firesOn": ["create"]}}]}"#
            #expect(try await server.fetch("POST", ServerHarness.path("subscriptions/modify"), body: subscribe).status == 200)
            let events = try EventStreamClient(port: server.port, path: ServerHarness.path("subscriptions/events"))
            try await events.waitForHead()
            #expect(try await server.scrape().value("query_notification_subscribers") == 1)
            #expect(try await server.fetch("POST", ServerHarness.path("records/modify"), body: Self.create).status == 200)
            // Metz is French; Graz, saved with it, is not.
            let notifications = try await events.next(1)
            #expect(notifications.map(\.name) == ["notification"])
            #expect(notifications.first?.data.contains("metz") == true)
            let scrape = try await server.scrape()
            #expect(scrape.value("query_notifications_sent_total") == 1, "\(scrape.text)")
            events.close()
        }
    }

    @Test(arguments: TestEngine.allCases.filter { $0 != .portableSQLite })
    func aStoreRecordsToTheMetricsItIsGiven(_ engine: TestEngine) async throws {
        let store = try engine.makeStore()
        _ = try await store.save(RecordsQueryTests.cities())
        let server = CloudKitServer(store: Store.inMemory())  // only for a registry of its own
        store.recordMetrics(StoreMetrics(factory: server.metricsFactory, dimensions: [("test", "store")]))
        let found = try await store.records(ofType: "City", matching: FormatPredicate(format: "population > 1000000"))
        _ = try await store.count(ofType: "City", matching: FormatPredicate(format: "countrycode == 'DE'"))
        _ = try await store.record(for: RecordID(recordName: "paris"))
        var text: [UInt8] = []
        server.metricsRegistry.emit(into: &text)
        let scrape = MetricsScrape(String(decoding: text, as: UTF8.self))
        let labels = ["engine": engine.engineName, "test": "store"]
        func operations(_ operation: String) -> Double? {
            scrape.value("query_store_operation_duration_seconds_count", labels.merging(["operation": operation]) { $1 })
        }
        #expect(operations("query") == 1, "\(scrape.text)")
        #expect(operations("count") == 1)
        #expect(operations("lookup") == 1)
        #expect(operations("save") == 0)
        #expect(scrape.value("query_store_rows_returned_total", labels) == Double(found.count))
        #expect(found.count == 6)
        if engine == .postgres {
            // Each operation leased one connection, and gave it back.
            #expect(scrape.value("query_store_pool_wait_seconds_count", labels) == 3)
            #expect(scrape.value("query_store_pool_connections_in_use", labels) == 0)
        } else {
            #expect(scrape.value("query_store_pool_wait_seconds_count", labels) == nil)
        }

        // The change history's tombstones: two deletions pruned a day on, then one kept.
        _ = try await store.delete([RecordID(recordName: "paris"), RecordID(recordName: "lyon")])
        store.historyRetention = .seconds(3600)
        #expect(try await store.pruneHistory(now: Date().addingTimeInterval(86_400)) == HistoryPruning(dropped: 2, kept: 0))
        _ = try await store.delete([RecordID(recordName: "berlin")])
        #expect(try await store.pruneHistory() == HistoryPruning(dropped: 0, kept: 1))
        text = []
        server.metricsRegistry.emit(into: &text)
        let pruned = MetricsScrape(String(decoding: text, as: UTF8.self))
        #expect(pruned.value("query_store_history_tombstones_pruned_total", labels) == 2, "\(pruned.text)")
        #expect(pruned.value("query_store_history_tombstones", labels) == 1)
        #expect(pruned.value("query_store_operation_duration_seconds_count", labels.merging(["operation": "history_prune"]) { $1 }) == 2)
    }

    /// The text parses with prometheus-client's parser (PyPI), in the virtual environment
    /// `.ci/run` makes; under CI the test must run.
    @Test(.enabled(if: PythonClient.python != nil || PostgresTestServer.isRequired, "QUERY_TEST_PYTHON is not set (.ci/run makes a virtual environment with prometheus-client)"))
    func theTextParsesWithPrometheusClient() async throws {
        let python = try #require(PythonClient.python, "CI is set, so QUERY_TEST_PYTHON must name the virtual environment's python")
        let store = try await RecordsQueryTests.servedStore()
        let text = try await MetricsHarness.withServer(store: store) { server in
            #expect(try await server.fetch("POST", ServerHarness.path("records/query"), body: Self.frenchCities).status == 200)
            #expect(try await server.fetch("GET", "/nowhere").status == 404)
            return try await server.scrape().text
        }
        let path = TestEngine.temporaryDatabasePath("metrics") + ".txt"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let script = """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            families = {}
            for family in text_string_to_metric_families(open(sys.argv[1]).read()):
                families[family.name] = {"type": family.type, "samples": [[s.name, s.labels, s.value] for s in family.samples]}
            print(json.dumps(families))
            """
        let (status, output) = try await ChildProcess.run(python, ["-c", script, path])
        try #require(status == 0, "prometheus-client refused the text:\n\(output.suffix(3000))\n\(text)")
        let families = try JSONValue(parsing: Array(output.utf8))
        #expect(families["query_http_requests"]?["type"] == "counter")
        #expect(families["query_http_request_duration_seconds"]?["type"] == "histogram")
        #expect(families["query_http_open_connections"]?["type"] == "gauge")
        #expect(families["query_store_rows_read"]?["type"] == "counter")
        let samples = families["query_http_requests"]?["samples"]?.arrayValue ?? []
        let counts = samples.compactMap { sample -> String? in
            guard let labels = sample.arrayValue?[1], let value = sample.arrayValue?[2].doubleValue else { return nil }
            return "\(labels["route"]?.stringValue ?? "") \(labels["status"]?.stringValue ?? "") \(Int(value))"
        }.sorted()
        #expect(counts == ["none 404 1", "records/query 200 1"])
    }
}

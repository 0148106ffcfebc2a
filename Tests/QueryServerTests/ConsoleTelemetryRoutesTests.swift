import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// `GET telemetry`, the console's Telemetry tab's route: its exact answer after known requests
/// on a clock the test moves (so that every latency is known), an hour that forgets, and who may
/// call it (the administrator, as the other administration routes).
@Suite struct ConsoleTelemetryRoutesTests {
    /// 2025-02-19T21:20:00Z, counted in minutes from 1970.
    static let minute: Int64 = 29_000_000

    /// Runs `body` with a server whose telemetry reads `clock`.
    static func withServer<T: Sendable>(
        store: Store, configuration: CloudKitServer.Configuration = .init(host: "127.0.0.1", port: 0), clock: ManualTelemetryClock,
        _ body: @Sendable (ServerHarness) async throws -> T
    ) async throws -> T {
        try await ServerHarness.withServer(store: store, configuration: configuration, telemetryClock: clock, body)
    }

    /// 60 values, `empty` but at the given minutes of the window.
    static func series(_ values: [Int: JSONValue], empty: JSONValue) -> JSONValue {
        .array((0..<60).map { values[$0] ?? empty })
    }

    /// A summary as the route answers it: `minutes` are the window's minutes with requests, each
    /// with its requests, 4xx, 5xx, p50 and p99.
    static func summary(route: String?, requests: Int64, clientErrors: Int64, serverErrors: Int64, p50: Double, p99: Double,
                        minutes: [Int: (requests: Int64, clientErrors: Int64, serverErrors: Int64, p50: Double, p99: Double)]) -> JSONValue {
        var members: [String: JSONValue] = [
            "requests": .integer(requests), "clientErrors": .integer(clientErrors), "serverErrors": .integer(serverErrors),
            "errorRate": .number(Double(serverErrors) / Double(requests)), "clientErrorRate": .number(Double(clientErrors) / Double(requests)),
            "p50": .number(p50), "p99": .number(p99),
            "series": [
                "requests": series(minutes.mapValues { .integer($0.requests) }, empty: 0),
                "clientErrors": series(minutes.mapValues { .integer($0.clientErrors) }, empty: 0),
                "serverErrors": series(minutes.mapValues { .integer($0.serverErrors) }, empty: 0),
                "p50": series(minutes.mapValues { .number($0.p50) }, empty: nil),
                "p99": series(minutes.mapValues { .number($0.p99) }, empty: nil),
            ],
        ]
        if let route { members["route"] = .string(route) }
        return .object(members)
    }

    @Test func theLastHoursRequestsByRouteExactly() async throws {
        let store = try await RecordsQueryTests.servedStore()
        // Each request reads the clock twice, one step apart: its latency is the step.
        let clock = ManualTelemetryClock(minute: Self.minute, step: .milliseconds(2))
        try await Self.withServer(store: store, clock: clock) { server in
            for _ in 0..<3 { #expect(try await server.send("GET", "/health").status == 200) }
            clock.set(minute: Self.minute + 1, seconds: 30, step: .milliseconds(30))
            #expect(try await server.send("GET", "/nowhere").status == 404)
            #expect(try await server.send("POST", ServerHarness.path("records/query"), body: "{").status == 400)
            clock.set(minute: Self.minute + 5)
            let answer = try await server.send("GET", ServerHarness.path("telemetry"))
            #expect(answer.status == 200)
            #expect(answer.contentType == "application/json; charset=utf-8")
            // The window's minutes: `minute` is the 55th of 60 (index 54), the current one the last.
            #expect(answer.body == [
                "recording": true, "windowMinutes": 60, "firstMinute": "2025-02-19T20:26:00Z",
                "total": Self.summary(route: nil, requests: 5, clientErrors: 2, serverErrors: 0, p50: 2, p99: 30,
                                      minutes: [54: (3, 0, 0, 2, 2), 55: (2, 2, 0, 30, 30)]),
                "routes": [
                    Self.summary(route: "/health", requests: 3, clientErrors: 0, serverErrors: 0, p50: 2, p99: 2, minutes: [54: (3, 0, 0, 2, 2)]),
                    Self.summary(route: "none", requests: 1, clientErrors: 1, serverErrors: 0, p50: 30, p99: 30, minutes: [55: (1, 1, 0, 30, 30)]),
                    Self.summary(route: "records/query", requests: 1, clientErrors: 1, serverErrors: 0, p50: 30, p99: 30, minutes: [55: (1, 1, 0, 30, 30)]),
                ],
            ])

            // An hour on, only the telemetry request itself is left, in the window's oldest minute.
            clock.set(minute: Self.minute + 64)
            let later = try await server.send("GET", ServerHarness.path("telemetry", environment: "development"))
            #expect(later.body["routes"] == [
                Self.summary(route: "telemetry", requests: 1, clientErrors: 0, serverErrors: 0, p50: 0, p99: 0, minutes: [0: (1, 0, 0, 0, 0)]),
            ])
            #expect(later.body["firstMinute"] == "2025-02-19T21:25:00Z")
            #expect(later.body["total"]?["requests"] == 1)
        }
    }

    @Test func onlyTheAdministratorReadsIt() async throws {
        let store = try await RecordsQueryTests.servedStore()
        let clock = ManualTelemetryClock(minute: Self.minute)
        let configuration = try RoleRoutesTests.configuration(TestKey(), heldKey: TestKey())
        try await Self.withServer(store: store, configuration: configuration, clock: clock) { server in
            let path = ServerHarness.path("telemetry")
            let administrator = try await server.send("GET", path, headers: ["Authorization": "Bearer \(RoleRoutesTests.administratorToken)"])
            #expect(administrator.status == 200)
            #expect(administrator.body["routes"] == [])
            let apiToken = try await server.send("GET", path + "?ckAPIToken=\(WebAuthTests.apiToken)")
            #expect(apiToken.status == 403)
            #expect(apiToken.errorCode == "ACCESS_DENIED")
            let nobody = try await server.send("GET", path)
            #expect(nobody.status == 421)
            #expect(nobody.errorCode == "AUTHENTICATION_REQUIRED")
            let wrong = try await server.send("GET", path, headers: ["Authorization": "Bearer wrong"])
            #expect(wrong.status == 403)
            // The refusals are counted like any request: by the route they were refused on.
            let after = try await server.send("GET", path, headers: ["Authorization": "Bearer \(RoleRoutesTests.administratorToken)"])
            #expect(after.body["routes"]?.arrayValue?.map { $0["route"] } == ["telemetry"])
            #expect(after.body["total"]?["requests"] == 4)
            #expect(after.body["total"]?["clientErrors"] == 3)
        }
    }

    @Test func aServerRecordingNoMetricsSaysSo() async throws {
        let store = try await RecordsQueryTests.servedStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.metrics.isRecording = false
        try await Self.withServer(store: store, configuration: configuration, clock: ManualTelemetryClock(minute: Self.minute)) { server in
            #expect(try await server.send("GET", "/health").status == 200)
            let answer = try await server.send("GET", ServerHarness.path("telemetry"))
            #expect(answer.body["recording"] == false)
            #expect(answer.body["routes"] == [])
            #expect(answer.body["total"]?["p99"] == .null)
        }
    }
}

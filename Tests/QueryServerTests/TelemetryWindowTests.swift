import Foundation
import PredicateLanguage
@testable import QueryServer
import Testing

/// The Telemetry tab's window (`TelemetryWindow`): exact counts and percentiles of known
/// samples, minutes that turn on a clock the test moves, an hour that forgets what is older, and
/// memory bounded by the routes and their 60 minutes whatever the traffic.
@Suite struct TelemetryWindowTests {
    /// 2025-02-19T21:20:00Z, counted in minutes from 1970.
    static let minute: Int64 = 29_000_000

    @Test func theHistogramsBucketsAndPercentiles() {
        #expect(LatencyHistogram.bounds.count == 37)
        #expect(LatencyHistogram.bounds.prefix(8) == [100, 150, 200, 300, 500, 700, 1_000, 1_500])
        #expect(LatencyHistogram.bounds.suffix(3) == [50_000_000, 70_000_000, 100_000_000])
        #expect(LatencyHistogram.bucket(of: 0) == 0)
        #expect(LatencyHistogram.bucket(of: 100) == 0)
        #expect(LatencyHistogram.bucket(of: 101) == 1)
        #expect(LatencyHistogram.bucket(of: 100_000_001) == 37)

        var empty = LatencyHistogram()
        #expect(empty.percentile(50) == nil)
        empty.record(microseconds: -5)
        #expect(empty.percentile(99) == 0)

        // 100 samples: 1 ms to 100 ms. The 50th is 50 ms (bucket up to 50 ms), the 99th 99 ms
        // (bucket up to 100 ms), the 100th 100 ms.
        var histogram = LatencyHistogram()
        for milliseconds in 1...100 { histogram.record(microseconds: Int64(milliseconds) * 1_000) }
        #expect(histogram.count == 100)
        #expect(histogram.percentile(50) == 50)
        #expect(histogram.percentile(99) == 100)
        #expect(histogram.percentile(1) == 1)
        // The 51st sample (51 ms) is in the bucket up to 70 ms.
        #expect(histogram.percentile(51) == 70)

        // The documented example, and a percentile held to the slowest sample.
        var few = LatencyHistogram()
        for milliseconds in [1, 2, 3, 40] { few.record(microseconds: Int64(milliseconds) * 1_000) }
        #expect(few.percentile(50) == 2)
        #expect(few.percentile(99) == 40)

        // Slower than the last bound: the slowest sample itself.
        var slow = LatencyHistogram()
        slow.record(microseconds: 250_000_000)
        #expect(slow.percentile(50) == 250_000)
        slow.add(few)
        #expect(slow.count == 5)
        #expect(slow.percentile(50) == 3)
    }

    @Test func countsErrorsAndPercentilesOfKnownRequests() {
        let clock = ManualTelemetryClock(minute: Self.minute)
        let window = TelemetryWindow(clock: clock)
        let now = clock.now()
        // records/query: 8 fast answers, one 400 and one 503, slow.
        for latency in [1, 1, 1, 2, 2, 2, 3, 3] { window.record(route: "records/query", status: 200, latency: .milliseconds(latency), at: now) }
        window.record(route: "records/query", status: 400, latency: .milliseconds(12), at: now)
        window.record(route: "records/query", status: 503, latency: .milliseconds(900), at: now)
        window.record(route: "/health", status: 200, latency: .microseconds(80), at: now)

        let report = window.report()
        #expect(report.firstMinute == Self.minute - 59)
        #expect(report.routes.map(\.route) == ["records/query", "/health"])
        let query = report.routes[0]
        #expect(query.json == .object([
            "route": .string("records/query"), "requests": .integer(10), "clientErrors": .integer(1), "serverErrors": .integer(1),
            "errorRate": .number(0.1), "clientErrorRate": .number(0.1), "p50": .number(2), "p99": .number(900),
            "series": .object([
                "requests": Self.series(last: .integer(10), empty: .integer(0)),
                "clientErrors": Self.series(last: .integer(1), empty: .integer(0)),
                "serverErrors": Self.series(last: .integer(1), empty: .integer(0)),
                "p50": Self.series(last: .number(2), empty: .null),
                "p99": Self.series(last: .number(900), empty: .null),
            ]),
        ]))
        #expect(report.total.hour.requests == 11)
        #expect(report.total.hour.serverErrors == 1)
        #expect(report.total.json["p50"] == .number(2))
        #expect(report.total.json["errorRate"] == .number(1.0 / 11.0))
        #expect(report.routes[1].json["p99"] == .number(0.08))
        #expect(report.json["firstMinute"] == .string("2025-02-19T20:21:00Z"))
        #expect(report.json["windowMinutes"] == .integer(60))
        #expect(report.json["recording"] == .bool(true))
    }

    @Test func minutesTurnOnTheClockAndAnHourLaterAreForgotten() {
        let clock = ManualTelemetryClock(minute: Self.minute, step: .milliseconds(5))
        let window = TelemetryWindow(clock: clock)
        // Two requests in the first minute (each reads the clock twice: 5 ms apart).
        for _ in 0..<2 { window.record(route: "records/query", status: 200, started: clock.now()) }
        // A minute later to the second, three; one of them a 500.
        clock.set(minute: Self.minute + 1, step: .milliseconds(20))
        for status in [200, 500, 200] { window.record(route: "records/query", status: status, started: clock.now()) }
        // 59 s into that minute, still the same minute.
        clock.set(minute: Self.minute + 1, seconds: 59, step: .zero)
        window.record(route: "zones/list", status: 200, latency: .zero, at: clock.now())

        var report = window.report()
        #expect(report.firstMinute == Self.minute + 1 - 59)
        let query = report.routes[0].minutes
        #expect(query.count == 60)
        #expect(query.prefix(58).allSatisfy { $0 == nil })
        #expect(query[58]?.minute == Self.minute)
        #expect(query[58]?.requests == 2)
        #expect(query[58]?.latency.percentile(99) == 5)
        #expect(query[59]?.requests == 3)
        #expect(query[59]?.serverErrors == 1)
        #expect(query[59]?.latency.percentile(50) == 20)
        #expect(report.routes.map(\.route) == ["records/query", "zones/list"])
        #expect(report.total.minutes[59]?.requests == 4)
        #expect(report.total.hour.requests == 6)

        // An hour after the first minute, that minute has left the window; the second is the oldest.
        clock.set(minute: Self.minute + 60)
        report = window.report()
        #expect(report.firstMinute == Self.minute + 1)
        #expect(report.routes.map { $0.hour.requests } == [3, 1])
        #expect(report.routes[0].minutes[0]?.requests == 3)

        // A request filed in the slot of the minute an hour before: that minute is reused, not added to.
        window.record(route: "records/query", status: 404, latency: .milliseconds(1), at: .seconds((Self.minute + 60) * 60))
        report = window.report()
        #expect(report.routes[0].minutes[59]?.requests == 1)
        #expect(report.routes[0].minutes[59]?.clientErrors == 1)
        #expect(report.routes[0].hour.requests == 4)

        // A request answered as the minute turned, filed after the next minute's: dropped, not
        // over the newer minute.
        window.record(route: "records/query", status: 200, latency: .zero, at: .seconds(Self.minute * 60))
        #expect(window.report().routes[0].hour.requests == 4)

        // Two hours on, nothing is left, and the routes are forgotten.
        clock.set(minute: Self.minute + 180)
        report = window.report()
        #expect(report.routes.isEmpty)
        #expect(report.total.hour.requests == 0)
        #expect(report.total.json["p99"] == .null)
        #expect(report.total.json["errorRate"] == .number(0))
    }

    @Test func memoryIsBoundedByRoutesAndMinutes() {
        let clock = ManualTelemetryClock(minute: Self.minute)
        let window = TelemetryWindow(clock: clock)
        // Three hours of traffic on two routes, a thousand requests a minute.
        for minute in 0..<180 {
            clock.set(minute: Self.minute + Int64(minute))
            let now = clock.now()
            for index in 0..<1_000 {
                window.record(route: index % 2 == 0 ? "records/query" : "records/modify", status: 200, latency: .microseconds(index), at: now)
            }
        }
        let report = window.report()
        #expect(report.routes.count == 2)
        #expect(report.routes.allSatisfy { route in route.minutes.count == 60 && route.minutes.allSatisfy { $0?.requests == 500 } })
        #expect(report.total.hour.requests == 60_000)
        // The latencies 0 to 999 µs: the 30,000th of 60,000 is 499 µs (bucket up to 500 µs).
        #expect(report.total.hour.latency.percentile(50) == 0.5)
        #expect(report.total.hour.latency.percentile(99) == 0.999)
    }

    @Test func theSystemClockNeverGoesBack() {
        let clock = SystemTelemetryClock()
        let first = clock.now()
        let second = clock.now()
        #expect(second >= first)
        #expect(abs(first.components.seconds - Int64(Date().timeIntervalSince1970)) <= 1)
    }

    /// A series of 60 values: `empty` in each minute but the last.
    static func series(last: JSONValue, empty: JSONValue) -> JSONValue {
        .array(Array(repeating: empty, count: 59) + [last])
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// `query console` as a process: it prints the console's address, serves the page and the routes
/// it calls (with every predicate allowed by default), refuses a host other than loopback, and
/// stops cleanly on SIGTERM.
@Suite struct ConsoleCommandTests {
    @Test func printsTheAddressServesThePageAndStopsOnSIGTERM() async throws {
        let (process, port) = try await ServeCommandTests.startServer(command: "console", announcedAfter: "query console: open http://127.0.0.1:")

        let (page, pageResponse) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/")))
        let http = try #require(pageResponse as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
        #expect(http.value(forHTTPHeaderField: "Content-Security-Policy")?.hasPrefix("default-src 'none'; ") == true)
        let html = String(decoding: page, as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains(#"data-token-required="false" data-sign-in="" data-rules="full""#))

        let base = "http://127.0.0.1:\(port)/database/1/iCloud.com.example.cities/production/public/"
        let (schema, _) = try await URLSession.shared.data(from: try #require(URL(string: base + "schema")))
        #expect(String(decoding: schema, as: UTF8.self) == #"{"recordTypes":[]}"#)
        var check = URLRequest(url: try #require(URL(string: base + "predicates/check")))
        check.httpMethod = "POST"
        check.httpBody = Data(#"{"predicate": "a == 1 OR b == 2"}"#.utf8)
        let (checked, _) = try await URLSession.shared.data(for: check)
        let answer = try JSONSerialization.jsonObject(with: checked) as? [String: Any]
        #expect(answer?["valid"] as? Bool == true)
        #expect(answer?["rules"] as? String == "full")
        #expect(answer?["canonical"] as? String == "a == 1 OR b == 2")

        process.terminate()
        #expect(try await ServeCommandTests.exitStatus(process) == 0)
    }

    @Test func refusesAHostOtherThanLoopbackAndUnknownRules() async throws {
        let outcome = try await CommandRunner.run(["console", "--host", "0.0.0.0"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--host must be a loopback address"))
        let rules = try await CommandRunner.run(["console", "--rules", "sql"])
        #expect(rules.status == 2)
        #expect(rules.standardError.contains("--rules is cloudkit or full"))
    }
}

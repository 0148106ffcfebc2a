import EngineTestSupport
import Foundation
@testable import QueryServer
import RecordStore
import Testing

/// `openapi.yaml` names exactly the routes the router answers, each with its methods: a route
/// added to a controller and not documented, or documented and gone, fails here.
@Suite struct OpenAPIRouteTests {
    /// The `METHOD /path` pairs of the document's `paths`, with `{name}` parameters.
    static func documentedRoutes() throws -> Set<String> {
        let text = try String(contentsOfFile: OpenAPITests.document, encoding: .utf8)
        var routes = Set<String>()
        var inPaths = false
        var path: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if !line.hasPrefix(" ") { inPaths = line == "paths:"; path = nil; continue }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
                if ["GET", "POST", "PUT", "DELETE", "PATCH"].contains(method) { routes.insert("\(method) \(path)") }
            }
        }
        return routes
    }

    /// The router's routes in the document's spelling (`:name` as `{name}`).
    static func routerRoutes() throws -> Set<String> {
        let store = try TestEngine.sqlite.makeStore()
        let routes = CloudKitServer(store: store).declaredRoutes()
        return Set(routes.map { entry in
            let path = "/" + entry.path.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
            return "\(entry.method.rawValue) \(path)"
        })
    }

    @Test func theDocumentNamesExactlyTheRoutersRoutes() throws {
        let documented = try Self.documentedRoutes()
        let answered = try Self.routerRoutes()
        #expect(answered.count >= 25)
        #expect(answered.subtracting(documented).sorted() == [], "answered but not in openapi.yaml")
        #expect(documented.subtracting(answered).sorted() == [], "in openapi.yaml but not answered")
    }
}

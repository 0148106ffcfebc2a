// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes

/// The server's routes as paths and methods, apart from the router: tells a request with a wrong
/// method (405, with the methods the path answers) from one with an unknown path (404).
///
/// ```swift
/// var routes = RouteTable()
/// routes.add("database/1/:container/:environment/:database/records/query", .post)
/// routes.methods(forPath: "/database/1/c/production/public/records/query")   // [.post]
/// ```
struct RouteTable: Sendable {
    private var entries: [(components: [Substring], methods: [HTTPRequest.Method])] = []

    /// Adds a path (components starting with `:` match any one component) and a method.
    mutating func add(_ path: String, _ method: HTTPRequest.Method) {
        let components = path.split(separator: "/")
        if let index = entries.firstIndex(where: { $0.components == components }) {
            entries[index].methods.append(method)
        } else {
            entries.append((components, [method]))
        }
    }

    /// The methods a path answers (empty: no route has this path).
    func methods(forPath path: String) -> [HTTPRequest.Method] {
        let components = path.split(separator: "/")
        return entries.first { entry in
            entry.components.count == components.count
                && zip(entry.components, components).allSatisfy { pattern, component in pattern.hasPrefix(":") || pattern == component }
        }?.methods ?? []
    }
}
#endif

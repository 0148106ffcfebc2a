// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import RecordStore

/// The server's routes as paths, methods and declared access, filled as ``ServerRoutes`` adds
/// each route to the router: tells a request with a wrong method (405, with the methods the path
/// answers) from one with an unknown path (404), and lists the routes for tests and
/// documentation.
///
/// ```swift
/// let routes = RouteTable()
/// routes.add("database/1/:container/:environment/:database/records/query", .post, access: .read)
/// routes.methods(forPath: "/database/1/c/production/public/records/query")   // [.post]
/// ```
final class RouteTable: Sendable {
    /// One route: its path pattern (components starting with `:` match any one component), a
    /// method, and the access it declares (nil for the routes outside the databases).
    struct Entry: Sendable, Equatable {
        let path: String
        let method: HTTPRequest.Method
        let access: RouteAccess?
    }

    private let entries = LockedState<[Entry]>([])

    init() {}

    /// Adds a route.
    func add(_ path: String, _ method: HTTPRequest.Method, access: RouteAccess?) {
        let path = path.split(separator: "/").joined(separator: "/")
        entries.withLock { $0.append(Entry(path: path, method: method, access: access)) }
    }

    /// Every route, in the order added.
    var all: [Entry] { entries.withLock { $0 } }

    /// The methods a path answers (empty: no route has this path).
    func methods(forPath path: String) -> [HTTPRequest.Method] {
        let components = path.split(separator: "/")
        return all.filter { entry in
            let pattern = entry.path.split(separator: "/")
            return pattern.count == components.count
                && zip(pattern, components).allSatisfy { pattern, component in pattern.hasPrefix(":") || pattern == component }
        }.map(\.method)
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server

/// `GET /`: the query console, one page that calls the database routes like any client
/// (``ConsoleDocument``).
///
/// ```swift
/// ConsoleController(console: ConsoleDocument(configuration: configuration)).addRoutes(to: routes)
/// ```
struct ConsoleController: RouteController {
    let console: ConsoleDocument

    func addRoutes(to routes: ServerRoutes) {
        let console = self.console
        routes.plain("/", .get) { _, _ in console.response() }
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server

/// `GET /`: the query console, one page that calls the database routes like any client
/// (``ConsoleDocument``).
///
/// ```swift
/// ConsoleController(configuration: configuration).addRoutes(to: routes)
/// ```
struct ConsoleController: RouteController {
    let console: ConsoleDocument

    /// The console of a server's configuration: its container and predicate rules, an API token
    /// field when it has credentials, and its sign-in page (``SignInPage``) when users sign in
    /// through an identity provider (a web auth token counts only beside an API token).
    init(configuration: ServerConfiguration) {
        let signsIn = !configuration.credentials.apiTokens.isEmpty && configuration.identityProvider != nil
        console = ConsoleDocument(container: configuration.container ?? ConsoleDocument.defaultContainer,
                                  tokenRequired: !configuration.credentials.isEmpty, signInPath: signsIn ? "/" + SignInPage.path : nil,
                                  rules: configuration.predicateRules)
    }

    func addRoutes(to routes: ServerRoutes) {
        let console = self.console
        routes.plain("/", .get) { _, _ in console.response() }
    }
}
#endif

// Part of the Server trait: without it, this module is empty.
#if Server
import Hummingbird

/// The share routes of the public database: `records/resolve` (a share's metadata by short
/// GUID) and `records/accept` (the caller joins the share). Shares themselves are saved through
/// `records/modify` in their owner's private database, and read in each participant's shared
/// database.
///
/// ```swift
/// SharesController(service: service, configuration: configuration).addRoutes(to: routes)
/// ```
struct SharesController: RouteController {
    let service: CloudKitService
    let configuration: ServerConfiguration

    func addRoutes(to routes: ServerRoutes) {
        let service = self.service
        let configuration = self.configuration
        for (route, access, accepting) in [("records/resolve", RouteAccess.read, false), ("records/accept", RouteAccess.write, true)] {
            routes.database(route, [.post], access: access) { request, context in
                guard let user = context.principal?.userRecordName else {
                    throw ServerError(.authenticationRequired, "\(route) needs a signed-in user (ckWebAuthToken) or a server-to-server key")
                }
                let links = service.assetLinks(origin: ClientOrigin.of(request, configuration: configuration))
                // A participant invited by email is the user with that address in the directory.
                let emailAddress = try await UserDirectory(store: service.store).user(named: user)?.emailAddress
                let answer = try await service.resolveShares(
                    try context.json(), in: try context.requireNamespace(), user: user, emailAddress: emailAddress,
                    container: context.parameters.get("container") ?? "", accepting: accepting, links: links)
                return JSONResponse.make(answer)
            }
        }
    }
}
#endif

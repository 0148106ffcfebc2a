// Part of the Server trait: without it, this module is empty.
#if Server
import Hummingbird
import PredicateLanguage

/// The user routes of a database, as CloudKit's reference shapes them:
///
/// | route | answers |
/// |---|---|
/// | `GET users/caller` | the caller's user identity at the top level: `userRecordName`, `nameComponents`, `lookupInfo` (what CloudKit JS's `setUpAuth()` reads) |
/// | `GET users/current` | the caller's user dictionary: `userRecordName`, `firstName`, `lastName` |
/// | `POST users/discover` | `users`: the identities of the discoverable users `lookupInfos` names |
/// | `POST users/lookup/email` | `users`: the discoverable users of the email addresses given |
/// | `POST users/lookup/id` | `users`: the discoverable users of the record names given, without email |
/// | `GET users/list` | `users`: every signed-in user, with email, by record name (administration, for the console's "act as": ``ActingUser``) |
///
/// A server-to-server key is the user of its private database (``UserRecordName``), without
/// name or email. An API token without a signed-in user is `AUTHENTICATION_REQUIRED`, with the
/// `redirectURL` of the sign-in page.
///
/// ```swift
/// UsersController(current: current, directory: UserDirectory(store: store), configuration: configuration).addRoutes(to: routes)
/// ```
struct UsersController: RouteController {
    /// The private database user of each configured key now (``PrivateDatabaseUser``).
    let current: CurrentCallerAccess
    /// The signed-in users.
    let directory: UserDirectory
    let configuration: ServerConfiguration

    func addRoutes(to routes: ServerRoutes) {
        let current = self.current
        let directory = self.directory
        let configuration = self.configuration
        /// The caller's user: a signed-in one as kept, a key's by name only.
        @Sendable func caller(_ request: Request, _ context: ServerRequestContext) async throws(ServerError) -> ServerUser {
            do {
                if case .user(let name) = context.caller { return try await directory.signedInUser(name) }
                return ServerUser(userRecordName: try UserRecordName.of(context.caller, privateUsers: current.snapshot.privateUsers))
            } catch {
                throw SignInPage.pointing(error, request: request, context: context, configuration: configuration)
            }
        }
        routes.database("users/caller", [.get], access: .read) { request, context in
            JSONResponse.make(try await caller(request, context).identityDictionary())
        }
        routes.database("users/current", [.get], access: .read) { request, context in
            JSONResponse.make(try await caller(request, context).userDictionary(withEmail: false))
        }
        routes.database("users/discover", [.post], access: .read) { request, context in
            _ = try await caller(request, context)
            return JSONResponse.make(try await directory.discover(try context.json()))
        }
        routes.database("users/lookup/email", [.post], access: .read) { request, context in
            _ = try await caller(request, context)
            return JSONResponse.make(try await directory.lookUpByEmail(try context.json()))
        }
        routes.database("users/lookup/id", [.post], access: .read) { request, context in
            _ = try await caller(request, context)
            return JSONResponse.make(try await directory.lookUpByRecordName(try context.json()))
        }
        routes.database("users/list", [.get], access: .administer) { _, _ in
            JSONResponse.make(JSONValue.object(["users": .array(try await directory.users().map { $0.userDictionary(withEmail: true) })]))
        }
    }
}
#endif

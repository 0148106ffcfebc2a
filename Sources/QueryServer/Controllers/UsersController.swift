// Part of the Server trait: without it, this module is empty.
#if Server

/// The user routes of a database: `users/current`, the caller's `userRecordName`
/// (``UserRecordName``).
///
/// ```swift
/// UsersController(privateUsers: privateUsers).addRoutes(to: routes)
/// ```
struct UsersController: RouteController {
    /// The private database user of each configured key (``PrivateDatabaseUser``).
    let privateUsers: [String: String]

    func addRoutes(to routes: ServerRoutes) {
        let privateUsers = self.privateUsers
        routes.database("users/current", [.get], access: .read) { _, context in
            JSONResponse.make(.object(["userRecordName": .string(try UserRecordName.of(context.caller, privateUsers: privateUsers))]))
        }
    }
}
#endif

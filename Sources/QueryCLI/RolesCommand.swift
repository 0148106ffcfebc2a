// Part of the Server trait.
#if Server
import ArgumentParser
import Foundation
import QueryServer
import RecordStore

/// `query roles`: the custom roles of the store's security policy (`CREATE ROLE` in a `.ckdb`
/// file applied with `query schema apply`) and the users who hold them. `query serve` reads them
/// from the store on every request, so an assignment holds at once on every server over it.
///
/// ```sh
/// query roles assign Moderator ada@example.org --db notes.sqlite
/// query roles list --db notes.sqlite
/// # Moderator	_3f9c…	ada@example.org
/// ```
struct RolesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roles",
        abstract: "Assign custom security roles to users, take them away, and list who holds which.",
        subcommands: [Assign.self, Remove.self, List.self])

    /// `query roles assign ROLE USER`.
    struct Assign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a user a role the schema declares (CREATE ROLE).")

        @OptionGroup var store: StoreOptions
        @Argument(help: "The role.") var role: String
        @Argument(help: "The user: their userRecordName or email address (query users list).") var user: String

        func run() async throws {
            let opened = try await store.openStore()
            let found = try await UsersCommand.user(user, in: UserDirectory(store: opened))
            try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.assignRole(role, to: found.userRecordName) }
            print("\(found.userRecordName) holds \(role)")
        }
    }

    /// `query roles remove ROLE USER`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a role from a user.")

        @OptionGroup var store: StoreOptions
        @Argument(help: "The role.") var role: String
        @Argument(help: "The user: their userRecordName or email address.") var user: String

        func run() async throws {
            let opened = try await store.openStore()
            let found = try await UsersCommand.user(user, in: UserDirectory(store: opened))
            try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.removeRole(role, from: found.userRecordName) }
            print("\(found.userRecordName) no longer holds \(role)")
        }
    }

    /// `query roles list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the declared roles and who holds each: role, userRecordName, email.")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let opened = try await store.openStore()
            let (policy, assignments) = try await StoreOptions.failing { () async throws(RecordStoreError) in
                (try await opened.securityPolicy(), try await opened.roleAssignments())
            }
            let directory = UserDirectory(store: opened)
            for role in policy.roles {
                let holders = assignments[role] ?? []
                if holders.isEmpty { print("\(role)\t-\t-") }
                for holder in holders {
                    let email = try await UsersCommand.failing { () async throws(ServerError) in try await directory.user(named: holder)?.emailAddress }
                    print("\(role)\t\(holder)\t\(email ?? "-")")
                }
            }
        }
    }
}
#endif

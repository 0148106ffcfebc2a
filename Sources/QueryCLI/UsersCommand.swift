// Part of the Server trait.
#if Server
import ArgumentParser
import Foundation
import QueryServer
import RecordStore

/// `query users`: the users who sign in to `query serve` over the same store (``UserDirectory``),
/// and their sessions (``WebAuthSessions``): add one, list them, hand one a web auth token, end
/// their sessions. Without an identity provider, `query users token` is how users (and tests)
/// get signed in.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage the users who sign in to query serve: add, list, token, revoke.",
        subcommands: [Add.self, List.self, Token.self, Revoke.self])

    /// `query users add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a user; prints their userRecordName.")

        @OptionGroup var store: StoreOptions

        @Option(help: "The user's email address (what users/lookup/email finds).")
        var email: String?

        @Option(help: "The user's given (first) name.")
        var givenName: String?

        @Option(help: "The user's family (last) name.")
        var familyName: String?

        @Flag(help: "Let other users find this one (users/discover, users/lookup/...).")
        var discoverable = false

        func run() async throws {
            let directory = UserDirectory(store: try await store.openStore())
            let user = try await UsersCommand.failing { () async throws(ServerError) in
                try await directory.add(ServerUser(givenName: givenName, familyName: familyName, emailAddress: email, isDiscoverable: discoverable))
            }
            print(user.userRecordName)
        }
    }

    /// `query users list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users: record name, email address, name, discoverable.")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let directory = UserDirectory(store: try await store.openStore())
            for user in try await UsersCommand.failing({ () async throws(ServerError) in try await directory.users() }) {
                let name = [user.givenName, user.familyName].compactMap { $0 }.joined(separator: " ")
                print([user.userRecordName, user.emailAddress ?? "-", name.isEmpty ? "-" : name, user.isDiscoverable ? "discoverable" : "-"]
                    .joined(separator: "\t"))
            }
        }
    }

    /// `query users token`.
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a user in: prints a web auth token (ckWebAuthToken) for a container.",
            discussion: "The token works on every query serve over the store, with one of its API tokens; each answer carries the next one in X-Apple-CloudKit-Web-Auth-Token.")

        @OptionGroup var store: StoreOptions

        @Option(help: "The user's userRecordName, or email address.")
        var user: String

        @Option(help: "The container the token is for (iCloud.com.example.notes).")
        var container: String

        @Flag(help: "Keep the user signed in for two weeks after their last request, instead of 30 minutes.")
        var keepSignedIn = false

        func run() async throws {
            let opened = try await store.openStore()
            let found = try await UsersCommand.user(user, in: UserDirectory(store: opened))
            let token = try await UsersCommand.failing { () async throws(ServerError) in
                try await WebAuthSessions(store: opened).open(userRecordName: found.userRecordName, container: container, keepsSignedIn: keepSignedIn)
            }
            print(token)
        }
    }

    /// `query users revoke`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End every session of a user: their web auth tokens stop working on every server.")

        @OptionGroup var store: StoreOptions

        @Option(help: "The user's userRecordName, or email address.")
        var user: String

        func run() async throws {
            let opened = try await store.openStore()
            let found = try await UsersCommand.user(user, in: UserDirectory(store: opened))
            let ended = try await UsersCommand.failing { () async throws(ServerError) in try await WebAuthSessions(store: opened).revokeAll(userRecordName: found.userRecordName) }
            print("\(ended) session(s) of \(found.userRecordName) ended")
        }
    }

    /// The user a command names by record name or email address.
    static func user(_ name: String, in directory: UserDirectory) async throws -> ServerUser {
        let found = try await failing { () async throws(ServerError) -> ServerUser? in
            name.contains("@") ? try await directory.user(emailAddress: name) : try await directory.user(named: name)
        }
        guard let found else { throw CommandFailure("no user is named '\(name)' (see query users list)") }
        return found
    }

    /// Runs server work, its error as the command's failure.
    static func failing<T>(_ body: () async throws(ServerError) -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
#endif

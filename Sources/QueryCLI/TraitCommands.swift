import ArgumentParser

/// What the `query` tool says about the parts a build of it leaves out: `serve` and `console`
/// are part of the Server trait, `postgres://` stores of the PostgreSQL trait. The package's
/// default traits leave both out, so that a fresh clone's first command builds quickly; a build
/// without them still knows these commands and locations, and answers them with the command
/// that builds them in, rather than with "unexpected argument".
///
/// ```sh
/// swift run query serve
/// # Error: query serve is part of the Server trait, which this build of query leaves out.
/// # Build it in and run it: swift run --enable-all-traits query serve
/// ```
enum TraitCommands {
    /// The command that runs a `query` subcommand with the traits it needs built in.
    static func buildHint(_ subcommand: String) -> String {
        "swift run --enable-all-traits query \(subcommand)"
    }

    /// The failure of a command that needs the Server trait, in a build without it.
    static func serverFailure(_ subcommand: String) -> CommandFailure {
        CommandFailure(
            "query \(subcommand) is part of the Server trait, which this build of query leaves out. "
                + "Build it in and run it: \(buildHint(subcommand)) (the first such build takes some minutes: "
                + "it compiles SwiftNIO, Hummingbird and BoringSSL)")
    }

    /// The failure for a PostgreSQL location in a build without the PostgreSQL trait; nil for
    /// any other location.
    static func postgresFailure(location: String) -> CommandFailure? {
        #if PostgreSQL
        return nil
        #else
        let lowercased = location.lowercased()
        guard lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://") else { return nil }
        return CommandFailure(
            "'\(location)' is a PostgreSQL store, and this build of query leaves out the PostgreSQL trait. "
                + "Build it in: swift run --enable-all-traits query ...")
        #endif
    }
}

#if !Server
/// `query serve` in a build without the Server trait: says how to build it in.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store over CloudKit Web Services' HTTP API (needs the Server trait: \(TraitCommands.buildHint("serve"))).")

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() throws {
        throw TraitCommands.serverFailure("serve")
    }
}

/// `query users` in a build without the Server trait: says how to build it in.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage the users who sign in to query serve (needs the Server trait: \(TraitCommands.buildHint("users"))).")

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() throws {
        throw TraitCommands.serverFailure("users")
    }
}

/// `query roles` in a build without the Server trait: says how to build it in.
struct RolesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roles",
        abstract: "Assign custom security roles to users (needs the Server trait: \(TraitCommands.buildHint("roles"))).")

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() throws {
        throw TraitCommands.serverFailure("roles")
    }
}

/// `query console` in a build without the Server trait: says how to build it in.
struct ConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Open the query console on a local store (needs the Server trait: \(TraitCommands.buildHint("console"))).")

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() throws {
        throw TraitCommands.serverFailure("console")
    }
}
#endif

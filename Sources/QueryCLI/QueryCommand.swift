import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// The `query` command-line tool: try the predicate language and the record store from the shell.
///
/// Exit status: 0 success, 1 a query or predicate error (message on standard error),
/// 2 wrong usage.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "NSPredicate format strings, fetch requests and CloudKit-style queries on Linux.",
        discussion: """
            Exit status: 0 on success, 1 for a query or predicate error, 2 for wrong usage.
            The database defaults to ./query.sqlite; set QUERY_DB or pass --db to use another.
            """,
        subcommands: subcommands
    )

    /// The commands, in the order `--help` lists them. `serve`, `console` and `users` are part of the
    /// Server trait; a build without it says how to build them in (``TraitCommands``).
    private static var subcommands: [any ParsableCommand.Type] {
        [
            DemoCommand.self, ImportCommand.self, FindCommand.self, CountCommand.self, SaveCommand.self, DeleteCommand.self, UpdateCommand.self,
            ZonesCommand.self, SharesCommand.self, ChangesCommand.self, ExportCommand.self, WatchCommand.self, SchemaCommand.self,
            BackupCommand.self, RestoreCommand.self,
            ServeCommand.self, ConsoleCommand.self, UsersCommand.self, RolesCommand.self, CheckCommand.self, EvalCommand.self,
        ]
    }
}

@main
enum QueryMain {
    static func main() async {
        // A reader that goes away (`| head`, a pager the user quit) ends the output, not the process.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try QueryCommand.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if let message = queryErrorMessage(error) {
                CommandOutput.standardError("error: \(message)")
                exit(1)
            }
            let code = QueryCommand.exitCode(for: error)
            let message = QueryCommand.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                exit(0)
            }
            if let explicitExit = error as? ExitCode {
                exit(explicitExit.rawValue)
            }
            if !message.isEmpty { CommandOutput.standardError(message) }
            exit(2)
        }
    }

    /// The message of an error in the query, the predicate, the store or the input (exit status 1),
    /// or nil for an error of the command line itself (usage, help, an explicit exit code).
    static func queryErrorMessage(_ error: any Error) -> String? {
        switch error {
        case let failure as CommandFailure: failure.description
        case let predicateError as FormatPredicateError: predicateError.description
        case let storeError as RecordStoreError: storeError.description
        case let jsonError as JSONParsingError: "invalid JSON: \(jsonError.description)"
        default: nil
        }
    }
}

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
        subcommands: [
            DemoCommand.self,
            ImportCommand.self,
            FindCommand.self,
            CountCommand.self,
            SchemaCommand.self,
            CheckCommand.self,
            EvalCommand.self,
        ]
    )
}

@main
enum QueryMain {
    static func main() async {
        do {
            var command = try QueryCommand.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CommandFailure {
            CommandOutput.standardError("error: \(error.description)")
            exit(1)
        } catch let error as FormatPredicateError {
            CommandOutput.standardError("error: \(error.description)")
            exit(1)
        } catch let error as RecordStoreError {
            CommandOutput.standardError("error: \(error.description)")
            exit(1)
        } catch let error as ValueJSONError {
            CommandOutput.standardError("error: invalid JSON: \(error.description)")
            exit(1)
        } catch {
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
}

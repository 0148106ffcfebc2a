// Part of the Server trait.
#if Server
import ArgumentParser
import Foundation
import QueryServer
import RecordStore

/// `query console`: the browser console on a local store. It is `query serve` on loopback,
/// without credentials; the console is the page at `/`, and its URL is printed on standard error.
///
/// ```sh
/// query console --db cities.sqlite --port 8090
/// # query console: open http://127.0.0.1:8090/ in a browser (Ctrl-C stops it)
/// ```
struct ConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Open the query console (a page in the browser) on a local store.",
        discussion: """
            Serves the store as `query serve` does, on loopback and without credentials, and prints \
            the console's address: pick a record type, type a predicate (checked as you type), add \
            sorts, page through the results, and see the plan, the schema and a map of the locations. \
            The page loads nothing from the network.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "The loopback address to listen on (127.0.0.1, ::1 or localhost).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8090

    @Option(help: "The rules a predicate follows: full (every NSPredicate) or cloudkit (CKQuery's language).")
    var rules = "full"

    func validate() throws {
        guard ["127.0.0.1", "::1", "localhost"].contains(host) else {
            throw ValidationError("--host must be a loopback address (127.0.0.1, ::1 or localhost): the console has no credentials")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard ["cloudkit", "full"].contains(rules) else { throw ValidationError("--rules is cloudkit or full") }
    }

    func run() async throws {
        let opened = try await store.openStore()
        let configuration = CloudKitServer.Configuration(
            host: host, port: port, predicateRules: rules == "full" ? .full : .cloudKit, rateLimit: 0, rateBurst: 0)
        let server = CloudKitServer(store: opened, configuration: configuration)
        let shownHost = host.contains(":") ? "[\(host)]" : host
        try await server.run { port in
            FileHandle.standardError.write(Data("query console: open http://\(shownHost):\(port)/ in a browser (Ctrl-C stops it)\n".utf8))
        }
    }
}
#endif

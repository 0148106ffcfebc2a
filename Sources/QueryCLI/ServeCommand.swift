import ArgumentParser
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore

/// `query serve`: the store over CloudKit Web Services' HTTP API.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store over CloudKit Web Services' HTTP API (records/query, records/lookup, records/modify, zones/*).",
        discussion: """
            Paths: /database/1/CONTAINER/ENVIRONMENT/DATABASE/records/query and so on, with ENVIRONMENT \
            development or production and DATABASE public or private. GET /health answers {"status": "ok"}.
            The server has no authentication yet, so it listens on loopback only.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "The address to listen on (loopback only, until authentication exists).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: "Serve only this container (default: any container, all sharing the store).")
    var container: String?

    @Option(help: "The rules a query.predicate string follows: cloudkit (CKQuery's language) or full.")
    var rules = "cloudkit"

    func validate() throws {
        guard ["127.0.0.1", "::1", "localhost"].contains(host) else {
            throw ValidationError("--host must be a loopback address (127.0.0.1, ::1 or localhost): the server has no authentication yet")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard ["cloudkit", "full"].contains(rules) else { throw ValidationError("--rules is cloudkit or full") }
    }

    func run() async throws {
        let opened = try await store.openStore()
        let configuration = CloudKitServer.Configuration(
            host: host, port: port, container: container, predicateRules: rules == "full" ? .full : .cloudKit)
        let server = CloudKitServer(store: opened, configuration: configuration)
        try await server.run { port in
            FileHandle.standardError.write(Data("query serve: listening on http://\(host):\(port) (loopback only: no authentication yet)\n".utf8))
        }
    }
}

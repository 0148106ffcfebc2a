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
            With --key (server-to-server keys, CloudKit's signed requests) or --api-token (ckAPIToken, \
            read-only public database), every other request is refused; with neither, anyone may call, \
            so the server then listens on loopback only.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "The address to listen on (loopback only unless --key or --api-token is given).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: "Serve only this container (default: any container, all sharing the store).")
    var container: String?

    @Option(help: "The rules a query.predicate string follows: cloudkit (CKQuery's language) or full.")
    var rules = "cloudkit"

    @Option(name: .customLong("key"), help: ArgumentHelp("A server-to-server key: KEYID=PATH, PATH a PEM file with its P-256 public (or private) key. Repeatable.", valueName: "KEYID=PEM"))
    var keys: [String] = []

    @Option(name: .customLong("api-token"), help: ArgumentHelp("An API token (ckAPIToken) that reads the public database. Repeatable.", valueName: "token"))
    var apiTokens: [String] = []

    @Option(help: "Requests a second each key or token may send, with bursts of twice as many (0: no limit).")
    var rateLimit: Double = 100

    func validate() throws {
        guard !keys.isEmpty || !apiTokens.isEmpty || ["127.0.0.1", "::1", "localhost"].contains(host) else {
            throw ValidationError("--host must be a loopback address (127.0.0.1, ::1 or localhost) unless --key or --api-token is given: without credentials anyone may call")
        }
        guard rateLimit >= 0 else { throw ValidationError("--rate-limit is 0 or more") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard ["cloudkit", "full"].contains(rules) else { throw ValidationError("--rules is cloudkit or full") }
    }

    func run() async throws {
        var credentials = ServerCredentials()
        do {
            for key in keys { try credentials.addKey(key) }
        } catch {
            throw CommandFailure(error.description)
        }
        credentials.apiTokens = Set(apiTokens)
        let opened = try await store.openStore()
        let configuration = CloudKitServer.Configuration(
            host: host, port: port, container: container, predicateRules: rules == "full" ? .full : .cloudKit,
            credentials: credentials, rateLimit: rateLimit, rateBurst: 2 * rateLimit)
        let server = CloudKitServer(store: opened, configuration: configuration)
        let access = credentials.isEmpty
            ? "no credentials: anyone on this machine may call"
            : "\(credentials.keyIDs.count) key(s), \(credentials.apiTokens.count) API token(s)"
        try await server.run { port in
            FileHandle.standardError.write(Data("query serve: listening on http://\(host):\(port) (\(access))\n".utf8))
        }
    }
}

import ArgumentParser
import RecordStore

/// `query changes`: what changed in a zone since a change token (CloudKit's `records/changes`),
/// or with `--database` which zones changed (`changes/database`), then the token to continue
/// from and whether more changes wait.
///
/// Without `--limit` every change up to now is printed (read in pages) and `moreComing` is
/// false; with it, one page of at most N changes. Without `--since`, every record of the zone.
/// An expired token is an error (exit status 1) that says to read again without `--since`.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Print the records changed and deleted in a zone since a change token, or with --database the zones changed.",
        discussion: """
            The last two lines are `token: TOKEN` and `moreComing: true|false` (with --output json \
            or jsonl, the fields "token" and "moreComing"): keep the token, and pass it to --since \
            to read only what changed after it. Saved records print as find prints them, with their \
            type; a deleted record prints as `deleted: TYPE NAME` (in JSON, "deleted": true).
            Examples: query changes; query changes --since TOKEN --limit 100; query changes --database
            """)

    /// Changes read a round trip when every change is wanted (no `--limit`).
    static let pageSize = 1_000

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("zone"), help: "The zone (default: the default zone).")
    var zone: String?

    @Flag(name: .customLong("database"), help: "Print the zones created, changed or deleted instead of a zone's records.")
    var database = false

    @Option(name: .customLong("since"), help: "Print only what changed after this token (printed by an earlier run).")
    var since: String?

    @Option(name: .customLong("limit"), help: "Print at most N changes; `moreComing: true` then says to continue with the token.")
    var limit: Int?

    @Option(name: .customLong("record-type"), help: ArgumentHelp("Only changes of this record type (repeat for several).", valueName: "type"))
    var recordTypes: [String] = []

    @Option(name: [.customLong("desired-keys"), .customLong("keys")], help: ArgumentHelp(
        "The fields to print, comma-separated (empty: none).", valueName: "a,b"))
    var keys: String?

    @Option(name: .customLong("output"), help: "table, json or jsonl.")
    var output: ChangesOutputFormat = .table

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if database {
            for (given, flag) in [(zone != nil, "--zone"), (!recordTypes.isEmpty, "--record-type"), (keys != nil, "--desired-keys")] where given {
                throw ValidationError("\(flag) is for a zone's changes, not --database")
            }
        }
    }

    func run() async throws {
        let opened = try await store.openStore()
        let token = since.map(ChangeToken.init(stringValue:))
        let destination = BufferedOutput.standardOutput()
        if database {
            try await printDatabaseChanges(of: opened, since: token, to: destination)
        } else {
            try await printZoneChanges(of: opened, since: token, to: destination)
        }
    }

    private func printZoneChanges(of opened: Store, since token: ChangeToken?, to destination: BufferedOutput) async throws {
        let zoneID = zone.map(ZoneID.init(zoneName:)) ?? .default
        let keyList = QueryArguments.keyList(keys)
        let types = recordTypes.isEmpty ? nil : recordTypes
        let pageSize = limit ?? Self.pageSize
        let read = { (after: ChangeToken?) async throws -> ZoneChanges in
            try await reading { () async throws(RecordStoreError) in
                try await opened.changes(in: zoneID, since: after, limit: pageSize, desiredKeys: keyList, recordTypes: types)
            }
        }
        var page = try await read(token)
        let columns = output == .table && keyList == nil ? try await tableColumns(of: opened) : keyList ?? []
        var writer = ZoneChangesWriter(format: output, output: destination, keys: keyList, columns: columns, moreComing: limit != nil && page.moreComing)
        writer.write(page)
        while limit == nil, page.moreComing, !destination.isClosed {
            page = try await read(page.token)
            writer.write(page)
        }
        writer.finish(token: page.token, moreComing: page.moreComing)
    }

    private func printDatabaseChanges(of opened: Store, since token: ChangeToken?, to destination: BufferedOutput) async throws {
        let pageSize = limit ?? Self.pageSize
        let read = { (after: ChangeToken?) async throws -> DatabaseChanges in
            try await reading { () async throws(RecordStoreError) in try await opened.databaseChanges(since: after, limit: pageSize) }
        }
        var changes = try await read(token)
        while limit == nil, changes.moreComing {
            let next = try await read(changes.token)
            changes = DatabaseChanges(
                changedZones: changes.changedZones + next.changedZones, deletedZones: changes.deletedZones + next.deletedZones,
                token: next.token, moreComing: next.moreComing)
        }
        DatabaseChangesWriter.write(changes, format: output, to: destination)
    }

    /// A table's field columns: the fields (not lists) of the record types asked for, or of
    /// every type, in the schema's order, each once.
    private func tableColumns(of opened: Store) async throws -> [String] {
        let schemas = try await StoreOptions.failing { () async throws(RecordStoreError) in try await opened.schema() }
        var seen: Set<String> = []
        return schemas.filter { recordTypes.isEmpty || recordTypes.contains($0.name) }
            .flatMap { $0.fields.filter { !$0.type.isList }.map(\.name) }
            .filter { seen.insert($0).inserted }
    }

    /// Runs a changes call; a refused token becomes a failure that says how to start again.
    private func reading<T>(_ body: () async throws(RecordStoreError) -> T) async throws -> T {
        let rerun = database ? "query changes --database" : "query changes" + (zone.map { " --zone \($0)" } ?? "")
        do {
            return try await body()
        } catch .changeTokenExpired {
            throw CommandFailure(
                "the change token has expired: the store no longer keeps the history after it. "
                    + "Run `\(rerun)` without --since to read everything again, and continue from the token it prints")
        } catch .invalidChangeToken(let problem) {
            throw CommandFailure(
                "invalid change token: \(problem). Pass a token printed by `\(rerun)` on this store, or run it without --since to start over")
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// `query find`: the records of a type that match a predicate.
struct FindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find records of a type that match a predicate.",
        discussion: """
            Example: query find City 'countrycode == "FR" AND population > 500000' --sort -population
            With a fetch request template of the schema: query find --template HighEarners --var MINIMUM=100000
            """)

    @OptionGroup var store: StoreOptions

    @OptionGroup var query: QueryArguments

    @Option(name: .customLong("limit"), help: "The batch size: print at most N records and, when more remain, a cursor for --cursor.")
    var limit: Int?

    @Option(name: .customLong("keys"), help: ArgumentHelp("The fields to print, comma-separated.", valueName: "a,b"))
    var keys: String?

    @Option(name: .customLong("zone"), help: "The zone to search (default: the default zone).")
    var zone: String?

    @Option(name: .customLong("cursor"), help: "Continue from a cursor of an earlier find.")
    var cursor: String?

    @Option(name: .customLong("output"), help: "table, json, jsonl or csv.")
    var output: RecordOutputFormat = .table

    @Option(name: .customLong("as"), help: ArgumentHelp(
        "Find what a user of query serve would read in the public database: their userRecordName (query users list), or 'anonymous' for a caller with an API token alone. The store's security roles apply.",
        valueName: "user"))
    var caller: String?

    @Flag(name: .customLong("explain"), help: "Print the query plan, with the estimated rows of each step, instead of the records.")
    var explain = false

    @Flag(name: .customLong("no-pager"), help: "Print a table straight to the terminal instead of through $PAGER.")
    var noPager = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if limit == 0 { throw ValidationError("--limit must be at least 1: a batch of 0 records prints nothing and no cursor") }
    }

    func run() async throws {
        let opened = try await store.openStore()
        var recordQuery = try await query.recordQuery(in: opened)
        if let caller { recordQuery = try await Self.readable(recordQuery, as: caller, in: opened) }
        let zoneID = zone.map(ZoneID.init(zoneName:)) ?? .default
        if explain {
            let plan = try await StoreOptions.failing { () async throws(RecordStoreError) in
                try await opened.explain(ofType: recordQuery.recordType, matching: recordQuery.predicate, sorts: recordQuery.sorts, zone: zoneID, limit: limit)
            }
            print(plan)
            return
        }
        let startCursor = try cursor.map { text in try StoreOptions.failing { () throws(RecordStoreError) in try QueryCursor(string: text) } }
        let keyList = QueryArguments.keyList(keys)
        // Only a table without --keys needs the schema's field order for its columns, and a
        // table of a type with subtypes (Core Data's inheritance) names each record's type.
        let fieldOrder = output != .table || keyList != nil ? [] : try await StoreOptions.failing { () async throws(RecordStoreError) in
            try await opened.schema(for: recordQuery.recordType)?.fields.filter { !$0.type.isList }.map(\.name) ?? []
        }
        let hasSubtypes = try await StoreOptions.failing { () async throws(RecordStoreError) in
            try await opened.schema().contains { $0.parentType == recordQuery.recordType }
        }
        let showsRecordType = output == .table && hasSubtypes
        // Records are written as they are read: memory holds one batch whatever the count.
        let pager = output == .table && !noPager ? Pager.start() : nil
        let destination = pager?.output ?? .standardOutput()
        var writer = output.writer(to: destination, keys: keyList, fieldOrder: fieldOrder, streams: limit == nil, showsRecordType: showsRecordType)
        let read = BatchedRead(store: opened, query: recordQuery, zone: zoneID)
        do {
            let nextCursor = try await StoreOptions.failing { () async throws(RecordStoreError) in
                try await read.run(from: startCursor, limit: limit) { batch in
                    writer.write(batch)
                    return !destination.isClosed
                }
            }
            writer.finish(cursor: nextCursor?.stringValue)
        } catch {
            destination.flush()
            await pager?.finish()
            throw error
        }
        await pager?.finish()
    }

    /// The query as a user of the server would run it (``SecurityPolicy/readable(_:for:)``); a
    /// type they may not read fails with the server's reason.
    static func readable(_ query: RecordQuery, as caller: String, in store: Store) async throws -> RecordQuery {
        let user = caller == "anonymous" ? nil : caller
        let (policy, roles) = try await StoreOptions.failing { () async throws(RecordStoreError) in
            var roles: Set<String> = []
            if let user { roles = try await store.roles(of: user) }
            return (try await store.securityPolicy(), roles)
        }
        let principal = SecurityPrincipal(userRecordName: user, roles: roles)
        guard let readable = policy.readable(query, for: principal) else {
            throw CommandFailure("ACCESS_DENIED: " + policy.refusal(CloudKitSchemaPermission.read, on: query.recordType, for: principal))
        }
        return readable
    }
}

import EngineTestSupport
import Foundation
import InMemoryTracing
import PredicateLanguage
import RecordStore
import Testing
import Tracing

/// A modify (what `records/modify` runs) costs a few statements per record type, whatever the
/// number of records: its reads are batched (the registry, then each type's rows), and so are
/// its writes (multi-row inserts or `COPY`, one `UPDATE ... FROM (VALUES ...)` and one
/// `DELETE ... USING (VALUES ...)` per type, list members a statement per list field).
///
/// The statements are counted as the store's traces see them: every statement an engine sends
/// through the shared SQL layer, and on PostgreSQL every round trip of the writer too. SQLite's
/// writer runs its cached prepared statements once per row, in process, without a round trip:
/// those are not counted, and what is counted must not grow with the records either.
struct ModifyStatementCountTests {
    /// What one modify cost: the statements its trace holds (printed with
    /// `QUERY_TEST_PRINT_STATEMENTS=1`, to see which changed when a count does).
    static func statements(of operation: () async throws -> Void, tracer: InMemoryTracer) async throws -> Int {
        tracer.clearFinishedSpans()
        try await operation()
        let statements = tracer.finishedSpans.filter { !$0.operationName.hasPrefix("store.") }
        if ProcessInfo.processInfo.environment["QUERY_TEST_PRINT_STATEMENTS"] != nil {
            for span in statements { print("STATEMENT", String(describing: span.attributes["db.query.text"]?.toSpanAttribute()).prefix(160)) }
            print("STATEMENT ---")
        }
        return statements.count
    }

    /// `count` records, alternately cities and towns, each with a list of tags.
    static func places(_ count: Int, prefix: String, population: Int64, zone: ZoneID = .default) -> [Record] {
        (0..<count).map { index in
            Record(
                recordType: index % 2 == 0 ? "City" : "Town", recordID: RecordID(recordName: "\(prefix)-\(index)", zoneID: zone),
                fields: [
                    "name": .string("\(prefix) \(index)"), "population": .int(population + Int64(index)),
                    "tags": .list([.string("tag \(index % 7)"), .string("all")]),
                ])
        }
    }

    /// The statements of creating, updating and deleting `count` records in one modify each.
    struct Costs: Equatable, CustomStringConvertible {
        var creating: Int
        var updating: Int
        var deleting: Int
        var description: String { "create \(creating), update \(updating), delete \(deleting)" }
    }

    /// The records a modify saved, in the order of `records`.
    static func saved(_ result: ModifyResult, _ records: [Record]) throws -> [Record] {
        try records.map { record in try #require(result.saveResults[record.recordID]).get() }
    }

    /// The costs of `count` records, in a zone of their own (so that no tombstone of another
    /// batch is there to remove).
    static func costs(of count: Int, in store: Store, tracer: InMemoryTracer) async throws -> Costs {
        let prefix = "batch\(count)"
        let zone = ZoneID(zoneName: prefix)
        try await store.createZone(zone)
        let new = places(count, prefix: prefix, population: 1_000, zone: zone)
        var saved: [Record] = []
        let creating = try await statements(of: {
            saved = try Self.saved(try await store.modify(saving: new, deleting: []), new)
        }, tracer: tracer)
        #expect(saved.count == count)
        let changed = saved.map { record in
            var record = record
            record.fields["population"] = .int(7)
            record.fields["tags"] = .list([.string("changed")])
            return record
        }
        let updating = try await statements(of: {
            let updated = try Self.saved(try await store.modify(saving: changed, deleting: []), changed)
            #expect(updated.count == count)
        }, tracer: tracer)
        #expect(try await store.count(ofType: "City", matching: FormatPredicate(format: "population == 7 AND ANY tags == 'changed'"), zone: zone) == (count + 1) / 2)
        let deleting = try await statements(of: {
            let result = try await store.modify(saving: [], deleting: saved.map(\.recordID))
            #expect(result.isSuccess == true)
        }, tracer: tracer)
        let left = try await store.records(for: saved.map(\.recordID)).values.filter { (try? $0.get()) != nil }
        #expect(left.isEmpty, "\(left.count) records are left")
        return Costs(creating: creating, updating: updating, deleting: deleting)
    }

    @Test(
        "10 and 500 records: creating, updating and deleting them costs the same few statements",
        arguments: TestEngine.allCases.filter { $0 == .sqlite || $0 == .postgres })
    func statementsDoNotGrowWithTheRecords(_ engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let tracer = InMemoryTracer()
        store.traceOperations(with: tracer)
        // The types and their list tables are made first: later saves do not pay for them.
        let fields = "name STRING QUERYABLE, population INT64 QUERYABLE SORTABLE, tags LIST<STRING> QUERYABLE"
        try await store.apply(try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA RECORD TYPE City (\(fields)); RECORD TYPE Town (\(fields));"))

        let ten = try await Self.costs(of: 10, in: store, tracer: tracer)
        let fiveHundred = try await Self.costs(of: 500, in: store, tracer: tracer)
        switch engine {
        case .postgres:
            // Each modify: BEGIN, one statement that reads the catalog, the registry of the
            // modify's records and their zone's existence, then its writes, its change position, the history and the notification, COMMIT. Under
            // 200 written records (deletions write none) the position is taken last, with the
            // history and the notification, in one statement (PostgresCommitStatement); from
            // 200 it is taken first, and the history (the records' positions, the tombstones,
            // the zone's position) and the notification are statements of their own.
            // - 10 new records: per type an INSERT (their registry rows in it) and one of the tags'
            //   members, then the commit statement: 8.
            // - 500 new records go by COPY (from 200 of a type): the position first, then per type
            //   the row identities and the COPY of the registry, the rows and the members, the
            //   tombstones looked for, the zone's position, the notification: 15.
            // - updates: each type's stored rows read, per type an UPDATE and the members replaced
            //   (a DELETE, an INSERT), the commit statement: 12; for 500, the position, the
            //   records' positions, the zone's and the notification: 15.
            // - deletions: each type's rows read, read again after the writes (3), a DELETE per
            //   type (the members go with the rows) and one of the registry, the commit
            //   statement: 12, for 500 too.
            #expect(ten == Costs(creating: 8, updating: 12, deleting: 12), "10 records: \(ten)")
            #expect(fiveHundred == Costs(creating: 15, updating: 15, deleting: 12), "500 records: \(fiveHundred)")
        default:
            // SQLite's writer runs its prepared statements per row in process; what the trace
            // holds (the catalog, the position, the history) is the same for 10 and 500 records.
            #expect(fiveHundred == ten, "10 records: \(ten); 500 records: \(fiveHundred)")
        }
    }

    @Test(
        "10 and 500 records: a batch update and a batch delete cost the same few statements",
        arguments: TestEngine.allCases.filter { $0 == .sqlite || $0 == .postgres })
    func batchRequestsDoNotGrowWithTheRecords(_ engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let tracer = InMemoryTracer()
        store.traceOperations(with: tracer)
        try await store.apply(try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA RECORD TYPE City (name STRING QUERYABLE, population INT64 QUERYABLE SORTABLE, tags LIST<STRING> QUERYABLE);"))
        var costs: [Int: (update: Int, delete: Int)] = [:]
        for count in [10, 500] {
            let zone = ZoneID(zoneName: "batch\(count)")
            try await store.createZone(zone)
            let cities = Self.places(count * 2, prefix: "batch\(count)", population: 1_000, zone: zone).filter { $0.recordType == "City" }
            _ = try await store.modify(saving: cities, deleting: [])
            var request = FetchRequest(entityName: "City", predicate: try FormatPredicate(format: "population >= 1000"))
            request.zoneID = zone
            let update = try await Self.statements(of: {
                let updated = try await store.updateRecords(matching: request, set: ["population": 5_000])
                #expect(updated.count == count)
            }, tracer: tracer)
            let delete = try await Self.statements(of: {
                let deleted = try await store.deleteRecords(matching: request)
                #expect(deleted.count == count)
            }, tracer: tracer)
            #expect(try await store.count(ofType: "City", matching: FormatPredicate(format: "TRUEPREDICATE"), zone: zone) == 0)
            costs[count] = (update, delete)
        }
        let ten = try #require(costs[10])
        let fiveHundred = try #require(costs[500])
        if engine == .postgres {
            // Under 200 written records one statement takes the position, records the history
            // and notifies (PostgresCommitStatement); an update of 200 or more takes four. A
            // deletion writes no record: one statement for 500 too.
            #expect(ten == (fiveHundred.update - 3, fiveHundred.delete), "10 records: \(ten); 500 records: \(fiveHundred)")
        } else {
            #expect(ten == fiveHundred, "10 records: \(ten); 500 records: \(fiveHundred)")
        }
    }
}

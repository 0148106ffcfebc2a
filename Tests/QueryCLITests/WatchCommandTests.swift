import Foundation
import PredicateLanguage
import RecordStore
import Testing
import TestSupport

/// Live queries across processes on one SQLite file: `query watch` in a child process prints
/// the changes this process commits, and an observation here hears a `query import` child.
@Suite(.timeLimit(.minutes(10))) struct WatchCommandTests {
    static func city(_ name: String, _ population: Int) -> Record {
        Record(recordType: "City", recordID: RecordID(recordName: name), fields: ["name": .string(name), "population": .int(Int64(population))])
    }

    @Test func watchPrintsEachCommittedChange() async throws {
        let database = TestFolders.file("watch", named: "store.sqlite")
        let store = try Store.open(path: database)
        _ = try await store.save([Self.city("Paris", 2_100_000), Self.city("Lyon", 520_000)])
        let watch = try LineReadingProcess(CommandRunner.productsFolder.appendingPathComponent("query"), [
            "watch", "City", "population > 500000", "--sort", "-population", "--db", database, "--output", "jsonl", "--keys", "population",
        ], reading: .standardOutput)
        defer { watch.stop() }
        // The results, then the line that says it watches.
        let first = try await watch.lines(3)
        #expect(first == [
            #"{"change":"result","index":0,"record":{"fields":{"population":2100000},"recordName":"Paris","recordType":"City","zone":"_defaultZone"}}"#,
            #"{"change":"result","index":1,"record":{"fields":{"population":520000},"recordName":"Lyon","recordType":"City","zone":"_defaultZone"}}"#,
            #"{"change":"watching","count":2}"#,
        ])
        _ = try await store.save([Self.city("Marseille", 870_000)])
        #expect(try await watch.lines(1) == [
            #"{"change":"insert","index":1,"record":{"fields":{"population":870000},"recordName":"Marseille","recordType":"City","zone":"_defaultZone"}}"#,
        ])
        var lyon = try #require(try await store.record(for: RecordID(recordName: "Lyon")))
        lyon["population"] = 3_000_000
        _ = try await store.save([lyon])
        #expect(try await watch.lines(1) == [
            #"{"change":"move","from":2,"record":{"fields":{"population":3000000},"recordName":"Lyon","recordType":"City","zone":"_defaultZone"},"to":0}"#,
        ])
        try await store.delete([RecordID(recordName: "Paris")])
        #expect(try await watch.lines(1) == [
            #"{"change":"delete","index":1,"record":{"fields":{"population":2100000},"recordName":"Paris","recordType":"City","zone":"_defaultZone"}}"#,
        ])
    }

    @Test func anObservationHearsAnotherProcessImport() async throws {
        let database = TestFolders.file("watch", named: "store.sqlite")
        let store = try Store.open(path: database)
        _ = try await store.save([Self.city("Seed", 10)])
        let query = try RecordQuery(recordType: "City", predicate: FormatPredicate(format: "population > 1000"), sorts: [Sort("population", ascending: false)])
        var iterator = store.observe(query).makeAsyncIterator()
        #expect(try await iterator.next()?.records.count == 0)

        let file = TestFolders.file("watch", named: "records.csv")
        let lines = ["name,population"] + (1...30).map { "c\($0),\($0 * 1000)" }
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        // Two batches of 15 records, two commits by the child process.
        let outcome = try await Task.detached {
            try await CommandRunner.run(["import", file, "--type", "City", "--id", "name", "--batch", "15", "--db", database])
        }.value
        #expect(outcome.status == 0, "\(outcome.standardError)")

        var shown: [Record] = []
        while shown.count < 29 {
            let change = try #require(try await iterator.next())
            #expect(change.kind == .changed)
            shown = change.records.records
        }
        #expect(shown.map(\.recordID.recordName) == (2...30).reversed().map { "c\($0)" })
        #expect(shown.first?["population"] == 30_000)
    }
}

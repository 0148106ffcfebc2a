import EngineTestSupport
import Foundation
import InMemoryTracing
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// A batch update that SQL decides alone runs over the rows on SQLite, without reading the
/// records (`SetBasedUpdate`, `SQLiteBatchUpdate`): the same store, history, full text, live
/// results and metadata as saving each record with the fields set; and every request it cannot
/// run that way takes the general way, with the same answer.
@Suite("Batch updates over the rows")
struct SetBasedUpdateTests {
    static let engines: [TestEngine] = [.sqlite, .portableSQLite]

    /// Runs a batch update and tells whether it ran over the rows: its statements fill the
    /// batch's table of rows (`temp."$batchUpdateRows"`); with the statements it ran.
    static func update(
        _ store: Store, tracer: InMemoryTracer, _ request: FetchRequest, set values: [String: Value], author: String? = nil
    ) async throws -> (result: BatchResult, overTheRows: Bool, statements: [String]) {
        tracer.clearFinishedSpans()
        let result = try await store.updateRecords(matching: request, set: values, author: author)
        let statements = tracer.finishedSpans.compactMap { span -> String? in
            guard case .string(let sql)? = span.attributes["db.query.text"]?.toSpanAttribute() else { return nil }
            return sql
        }
        return (result, statements.contains { $0.hasPrefix("INSERT INTO temp.\"$batchUpdateRows\"") }, statements)
    }

    static func request(_ format: String) throws -> FetchRequest {
        FetchRequest(entityName: "Note", predicate: try FormatPredicate(format: format))
    }

    @Test("Over the rows: the same records, history, full text, live results and metadata as saving each record", arguments: engines)
    func sameAsSavingEachRecord(engine: TestEngine) async throws {
        let batched = try BatchRequestTests.makeStore(engine)
        let saved = try BatchRequestTests.makeStore(engine)
        let tracer = InMemoryTracer()
        batched.traceOperations(with: tracer)
        let batchedStart = try await batched.currentChangeToken()
        let savedStart = try await saved.currentChangeToken()
        let before = Dictionary(uniqueKeysWithValues: try await batched.fetch(FetchRequest(entityName: "Note")).records.map { ($0.recordID, $0) })
        var notes = FetchRequest(entityName: "Note", sortDescriptors: [Sort("name")])
        notes.fetchBatchSize = 0
        let probe = ObservationProbe(batched.observe(notes))
        try await probe.next()

        // `name` is searchable: its documents are rebuilt; `status` is removed; `words` set.
        let values: [String: Value] = ["name": "renamed", "status": nil, "words": 7]
        let started = Date()
        let (updated, overTheRows, statements) = try await Self.update(
            batched, tracer: tracer, Self.request("words BETWEEN {300, 599}"), set: values, author: "_editor")
        #expect(overTheRows)
        // One UPDATE of the rows listed, each with a change tag of its own; its full text rebuilt.
        #expect(statements.filter { $0.hasPrefix("UPDATE \"Note\"") && $0.contains("query_next_change_tag") }.count == 1)
        #expect(statements.contains { $0.contains("query_full_text_document") })
        try #require(updated.count > 10, "the random data leaves too few matches: \(updated.count)")
        let change = try await probe.next()
        #expect(change.difference.moves.count + change.difference.updates.count == updated.count)
        #expect(change.difference.insertions.isEmpty && change.difference.deletions.isEmpty)

        let toSave = try await saved.fetch(Self.request("words BETWEEN {300, 599}")).records
        // In the fetch's order: record names, in code-point order.
        #expect(updated.recordIDs == toSave.map(\.recordID))
        for var record in toSave {
            for (field, value) in values { record[field] = value.isNull ? nil : value }
            try await saved.save([record])
        }

        #expect(try await BatchRequestTests.contents(batched, "Note") == BatchRequestTests.contents(saved, "Note"))
        let batchedHistory = try await BatchRequestTests.history(batched, since: batchedStart)
        #expect(Set(batchedHistory.saved.keys) == Set(updated.recordIDs.map(\.recordName)))
        #expect(try await batchedHistory.saved == BatchRequestTests.history(saved, since: savedStart).saved)
        let queries = ["self CONTAINS 'renamed'", "self CONTAINS 'n07'", "words == 7", "status == nil", "ANY tags == 'even'"]
        let counts = try await BatchRequestTests.counts(batched, queries)
        #expect(try await BatchRequestTests.counts(saved, queries) == counts)
        #expect(counts[0] == updated.count && counts[2] == updated.count, "\(counts)")

        // Each updated record: a change tag of its own, new and different from the one it had; the
        // update's date and author; its creation kept.
        let after = try await batched.fetch(FetchRequest(entityName: "Note")).records
        var tags = Set<String>()
        for record in after where updated.recordIDs.contains(record.recordID) {
            let old = try #require(before[record.recordID])
            let tag = try #require(record.recordChangeTag)
            #expect(tag != old.recordChangeTag && tag.count == 8)
            tags.insert(tag)
            #expect(record.lastModifiedUserRecordName == "_editor")
            #expect(try #require(record.modificationDate) >= started.addingTimeInterval(-1))
            #expect(record.creationDate == old.creationDate && record.creatorUserRecordName == old.creatorUserRecordName)
        }
        #expect(tags.count == updated.count)
        for record in after where !updated.recordIDs.contains(record.recordID) {
            #expect(record == before[record.recordID])
        }
        // A record read before the update is now a conflict to save.
        var stale = try #require(before[updated.recordIDs[0]])
        stale["status"] = "stale"
        await #expect(throws: RecordStoreError.self) { try await batched.save([stale]) }

        let expected = try await saved.fetch(notes).records
        #expect(probe.shown.map(\.recordID) == expected.map(\.recordID))
        #expect(probe.shown.map(\.fields) == expected.map(\.fields))
        probe.finish()
    }

    @Test("What SQL cannot decide or write alone takes the general way, with the same answer", arguments: engines)
    func generalWay(engine: TestEngine) async throws {
        let store = try BatchRequestTests.makeStore(engine)
        let tracer = InMemoryTracer()
        store.traceOperations(with: tracer)

        // A list field (its members are the save's to write), a relationship, a sorted request:
        // the general way, and the update is made.
        let list = try await Self.update(store, tracer: tracer, Self.request("words < 100"), set: ["tags": ["short"]])
        #expect(!list.overTheRows && list.result.count > 0)
        #expect(try await store.count(ofType: "Note", matching: FormatPredicate(format: "ANY tags == 'short'")) == list.result.count)
        let folder = try await Self.update(store, tracer: tracer, Self.request("words < 100"), set: ["folder": .reference(Reference(recordName: "f1"))])
        #expect(!folder.overTheRows && folder.result.count == list.result.count)
        var sorted = try Self.request("words < 100")
        sorted.sortDescriptors = [Sort("words", ascending: false)]
        let ordered = try await Self.update(store, tracer: tracer, sorted, set: ["status": "sorted"])
        #expect(!ordered.overTheRows && Set(ordered.result.recordIDs) == Set(list.result.recordIDs))

        // A value that breaks its rule: every record listed, nothing changed.
        let beforeRefusal = try await BatchRequestTests.contents(store, "Note")
        tracer.clearFinishedSpans()
        await #expect {
            try await store.updateRecords(matching: Self.request("words < 100"), set: ["words": 20_000])
        } throws: { error in
            guard case RecordStoreError.validationFailed(let failures) = error else { return false }
            return failures.count == list.result.count && failures.allSatisfy { $0.code == .numberTooLarge }
        }
        #expect(try await BatchRequestTests.contents(store, "Note") == beforeRefusal)

        // A field the schema lacks, in development mode: added by the general way.
        let added = try await Self.update(store, tracer: tracer, Self.request("words < 100"), set: ["mood": "calm"])
        #expect(!added.overTheRows && added.result.count == list.result.count)
        // Then the same field again, now known: over the rows.
        let known = try await Self.update(store, tracer: tracer, Self.request("words < 100"), set: ["mood": "serene"])
        #expect(known.overTheRows && known.result.recordIDs == added.result.recordIDs)
        #expect(try await store.count(ofType: "Note", matching: FormatPredicate(format: "mood == 'serene'")) == known.result.count)

        // No match: nothing written, no history.
        let token = try await store.currentChangeToken()
        let none = try await Self.update(store, tracer: tracer, Self.request("words > 5000"), set: ["status": "none"])
        #expect(none.overTheRows && none.result.count == 0)
        #expect(try await store.changes(since: token, limit: 10).changedRecords.isEmpty)
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Batch deletes and updates (`Store.deleteRecords(matching:)`, `Store.updateRecords(matching:set:)`)
/// on every engine: the same store, history and live-query results as the same changes made record
/// by record; deletion rules and validation kept; the fetch request's order, range and walks.
@Suite("Batch deletes and updates")
struct BatchRequestTests {
    static let schema: [RecordTypeSchema] = [
        RecordTypeSchema(
            name: "Folder", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [.toMany("notes", destination: "Note", inverse: "folder", deletionRule: .cascade)]),
        RecordTypeSchema(
            name: "Note",
            fields: [
                FieldSchema(name: "name", type: .string, isSearchable: true), FieldSchema(name: "status", type: .string),
                FieldSchema(name: "tags", type: .list(.string)),
                FieldSchema(name: "words", type: .int64, validation: FieldValidation(maximumValue: 10_000)),
            ],
            relationships: [.toOne("folder", destination: "Folder")]),
        RecordTypeSchema(
            name: "Customer", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [.toMany("orders", destination: "Order", inverse: "customer", deletionRule: .deny)]),
        RecordTypeSchema(
            name: "Order", fields: [FieldSchema(name: "name", type: .string)], relationships: [.toOne("customer", destination: "Customer")]),
    ]

    static func id(_ name: String) -> RecordID { RecordID(recordName: name) }

    /// Three folders and 60 notes in them with random word counts (the same for every seed), two
    /// customers, one with an order.
    static func records() -> [Record] {
        var random = SplitMix64(seed: 51)
        var records = (1...3).map { Record(recordType: "Folder", recordID: id("f\($0)"), fields: ["name": .string("f\($0)")]) }
        for index in 1...60 {
            let name = String(format: "n%02d", index)
            records.append(Record(recordType: "Note", recordID: id(name), fields: [
                "name": .string(name), "status": .string("draft"), "words": .int(Int64(random.next() % 1_000)),
                "tags": .list([.string(index % 2 == 0 ? "even" : "odd"), .string("tag\(index % 5)")]),
                "folder": .reference(Reference(recordName: "f\(index % 3 + 1)")),
            ]))
        }
        records += [
            Record(recordType: "Customer", recordID: id("c1"), fields: ["name": "c1"]),
            Record(recordType: "Customer", recordID: id("c2"), fields: ["name": "c2"]),
            Record(recordType: "Order", recordID: id("o1"), fields: ["name": "o1", "customer": .reference(Reference(recordName: "c1"))]),
        ]
        return records
    }

    static func makeStore(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.define(schema)
        try store.save(records())
        return store
    }

    static func request(_ type: String, _ format: String) throws -> FetchRequest {
        FetchRequest(entityName: type, predicate: try FormatPredicate(format: format), sortDescriptors: [Sort("name")])
    }

    /// Every record of a type, by name, as its fields (change tags differ between stores).
    static func contents(_ store: Store, _ type: String) async throws -> [String: [String: Value]] {
        var contents: [String: [String: Value]] = [:]
        for record in try await store.fetch(FetchRequest(entityName: type)).records { contents[record.recordID.recordName] = record.fields }
        return contents
    }

    /// What the history says changed since a token: the records saved (by name, their fields) and
    /// the names deleted.
    static func history(_ store: Store, since token: ChangeToken) async throws -> (saved: [String: [String: Value]], deleted: Set<String>) {
        let changes = try await store.changes(since: token, limit: 10_000)
        #expect(changes.moreComing == false)
        var saved: [String: [String: Value]] = [:]
        for record in changes.changedRecords { saved[record.recordID.recordName] = record.fields }
        return (saved, Set(changes.deletedRecords.map(\.recordID.recordName)))
    }

    /// How many notes each predicate matches.
    static func counts(_ store: Store, _ formats: [String]) async throws -> [Int] {
        var counts: [Int] = []
        for format in formats { counts.append(try await store.count(ofType: "Note", matching: FormatPredicate(format: format))) }
        return counts
    }

    @Test("A batch delete and a batch update leave the store, the history and live results as record-by-record changes do", arguments: TestEngine.allCases)
    func sameAsRecordByRecord(engine: TestEngine) async throws {
        let batched = try Self.makeStore(engine)
        let oneByOne = try Self.makeStore(engine)
        let batchedStart = try await batched.currentChangeToken()
        let oneByOneStart = try await oneByOne.currentChangeToken()
        var notes = FetchRequest(entityName: "Note", sortDescriptors: [Sort("name")])
        notes.fetchBatchSize = 0
        let batchedProbe = ObservationProbe(batched.observe(notes))
        try await batchedProbe.next()

        // The batch store: one delete, one update.
        let deleted = try await batched.deleteRecords(matching: Self.request("Note", "words < 300"))
        let deletion = try await batchedProbe.next()
        #expect(deletion.difference.deletions.count == deleted.count)
        #expect(deletion.difference.insertions.isEmpty && deletion.difference.updates.isEmpty)
        let updated = try await batched.updateRecords(matching: Self.request("Note", "words BETWEEN {300, 599}"), set: ["status": "long", "words": 0])
        let update = try await batchedProbe.next()
        #expect(update.difference.updates.count == updated.count)
        #expect(update.difference.deletions.isEmpty && update.difference.insertions.isEmpty)

        // The other store: the same records, one write each.
        let toDelete = try await oneByOne.fetch(Self.request("Note", "words < 300")).records
        #expect(toDelete.map(\.recordID) == deleted.recordIDs)
        for record in toDelete { try await oneByOne.delete([record.recordID]) }
        let toUpdate = try await oneByOne.fetch(Self.request("Note", "words BETWEEN {300, 599}")).records
        #expect(toUpdate.map(\.recordID) == updated.recordIDs)
        for var record in toUpdate {
            record["status"] = "long"
            record["words"] = 0
            try await oneByOne.save([record])
        }
        #expect(deleted.count > 10 && updated.count > 10, "the random data leaves too few matches: \(deleted.count), \(updated.count)")

        // Lists and full text: a batch update that leaves them keeps them queryable, one that
        // sets them replaces their members and documents.
        let queries = ["ANY tags == 'even'", "ANY tags == 'tag3'", "self CONTAINS 'n07'", "self CONTAINS 'renamed'", "ANY tags == 'new'"]
        let beforeRename = try await Self.counts(batched, queries)
        #expect(try await Self.counts(oneByOne, queries) == beforeRename)
        #expect(beforeRename[0] > 0 && beforeRename[1] > 0 && beforeRename[4] == 0, "\(beforeRename)")
        let renamed = try await batched.updateRecords(matching: Self.request("Note", "words >= 600 AND name ENDSWITH '7'"), set: ["name": "renamed", "tags": ["new", "even"]])
        try #require(renamed.count > 0, "the random data leaves no note to rename")
        let rename = try await batchedProbe.next()
        // Renamed, the notes move to the end of the results (sorted by name): moves, not insertions.
        #expect(rename.difference.moves.count == renamed.count)
        #expect(rename.difference.insertions.isEmpty && rename.difference.deletions.isEmpty)
        for var record in try await oneByOne.fetch(Self.request("Note", "words >= 600 AND name ENDSWITH '7'")).records {
            record["name"] = "renamed"
            record["tags"] = ["new", "even"]
            try await oneByOne.save([record])
        }
        let afterRename = try await Self.counts(batched, queries)
        #expect(try await Self.counts(oneByOne, queries) == afterRename)
        #expect(afterRename[3] > 0 && afterRename[3] == afterRename[4], "\(afterRename)")

        // The same records, history and results.
        let batchedNotes = try await Self.contents(batched, "Note")
        #expect(try await batchedNotes == Self.contents(oneByOne, "Note"))
        #expect(batchedNotes.count == 60 - deleted.count)
        let batchedHistory = try await Self.history(batched, since: batchedStart)
        let oneByOneHistory = try await Self.history(oneByOne, since: oneByOneStart)
        #expect(batchedHistory.saved == oneByOneHistory.saved)
        #expect(batchedHistory.deleted == oneByOneHistory.deleted)
        #expect(batchedHistory.deleted == Set(deleted.recordIDs.map(\.recordName)))
        #expect(Set(batchedHistory.saved.keys) == Set((updated.recordIDs + renamed.recordIDs).map(\.recordName)))
        // The live results after the three batch commits (one change each) are the other store's records.
        let expected = try await oneByOne.fetch(notes).records
        #expect(batchedProbe.shown.map(\.recordID) == expected.map(\.recordID))
        #expect(batchedProbe.shown.map(\.fields) == expected.map(\.fields))
        batchedProbe.finish()
    }

    @Test("Deletion rules: a batch delete cascades, and a denied one deletes nothing", arguments: TestEngine.allCases)
    func deletionRules(engine: TestEngine) throws {
        let store = try Self.makeStore(engine)
        let result = try store.deleteRecords(matching: Self.request("Folder", "name IN {'f1', 'f3'}"))
        #expect(result.recordIDs == [Self.id("f1"), Self.id("f3")])
        #expect(try store.count(ofType: "Folder", matching: FormatPredicate(format: "TRUEPREDICATE")) == 1)
        // Notes n01, n04, … are in f2; the others went with their folders.
        let notes = try store.fetch(FetchRequest(entityName: "Note", sortDescriptors: [Sort("name")])).records
        #expect(notes.count == 20)
        #expect(notes.allSatisfy { $0["folder"] == .reference(Reference(recordName: "f2")) })

        #expect(throws: RecordStoreError.deleteDenied(Self.id("c1"), relationship: "orders", recordType: "Customer", blockedBy: Self.id("o1"))) {
            try store.deleteRecords(matching: Self.request("Customer", "TRUEPREDICATE"))
        }
        #expect(try store.count(ofType: "Customer", matching: FormatPredicate(format: "TRUEPREDICATE")) == 2)
        #expect(try store.deleteRecords(matching: Self.request("Customer", "orders.@count == 0")).recordIDs == [Self.id("c2")])
    }

    @Test("Validation: a batch update that breaks a rule lists every record and changes nothing; null removes a field", arguments: TestEngine.allCases)
    func validation(engine: TestEngine) async throws {
        let store = try Self.makeStore(engine)
        let before = try await Self.contents(store, "Note")
        let tooMany = try Self.request("Note", "words >= 900")
        let matches = try await store.fetch(tooMany).records.map(\.recordID.recordName)
        #expect(!matches.isEmpty)
        do throws(RecordStoreError) {
            try await store.updateRecords(matching: tooMany, set: ["words": 20_000])
            Issue.record("the update was not refused")
        } catch {
            guard case .validationFailed(let failures) = error else { Issue.record("unexpected: \(error)"); return }
            #expect(failures.map(\.recordID.recordName) == matches)
            #expect(failures.allSatisfy { $0.code == .numberTooLarge && $0.key == "words" })
        }
        #expect(try await Self.contents(store, "Note") == before)

        let cleared = try await store.updateRecords(matching: Self.request("Note", "words < 100"), set: ["status": nil])
        #expect(try await store.count(ofType: "Note", matching: FormatPredicate(format: "status == nil")) == cleared.count)
        let cleared2 = try Self.request("Note", "status == nil")
        #expect(try await store.fetch(cleared2).records.allSatisfy { $0.fields.keys.sorted() == ["folder", "name", "tags", "words"] })
        let everything = try Self.request("Note", "TRUEPREDICATE")
        await #expect(throws: RecordStoreError.invalidBatchUpdate(recordType: "Note", reason: "it sets no field")) {
            try await store.updateRecords(matching: everything, set: [:])
        }
        let none = try Self.request("Note", "words > 5000")
        #expect(try await store.deleteRecords(matching: none) == BatchResult(recordIDs: []))
    }

    @Test("A batch update admits what it sets as a save does: a number converted to its field's type, a new field added, a wrong type refused", arguments: TestEngine.allCases)
    func admission(engine: TestEngine) async throws {
        let store = try Self.makeStore(engine)
        let short = try await store.fetch(Self.request("Note", "words < 100")).records
        #expect(!short.isEmpty)
        let updated = try await store.updateRecords(matching: Self.request("Note", "words < 100"), set: ["words": .double(12), "mood": "calm"])
        #expect(updated.recordIDs == short.map(\.recordID))
        let notes = try await store.fetch(Self.request("Note", "mood == 'calm'")).records
        #expect(notes.map(\.recordID) == updated.recordIDs)
        #expect(notes.allSatisfy { $0["words"] == .int(12) })
        #expect(notes.map { $0.fields.count } == short.map { $0.fields.count + 1 })
        #expect(try await store.schema(for: "Note")?.field(named: "mood")?.type == .string)

        let before = try await Self.contents(store, "Note")
        await #expect(throws: RecordStoreError.typeMismatch(field: "words", recordType: "Note", schemaType: .int64, valueType: "string")) {
            try await store.updateRecords(matching: Self.request("Note", "TRUEPREDICATE"), set: ["words": "many"])
        }
        #expect(try await Self.contents(store, "Note") == before)
    }

    @Test("The fetch request's sorts, limit, offset and relationship walks choose the records", arguments: TestEngine.allCases)
    func requestShape(engine: TestEngine) throws {
        let store = try Self.makeStore(engine)
        var largest = FetchRequest(entityName: "Note", sortDescriptors: [Sort("words", ascending: false), Sort("name")])
        largest.fetchOffset = 1
        largest.fetchLimit = 3
        let expected = try store.fetch(largest).records.map(\.recordID)
        #expect(expected.count == 3)
        #expect(try store.deleteRecords(matching: largest).recordIDs == expected)
        #expect(try store.records(for: expected).values.allSatisfy { (try? $0.get()) == nil })

        let inF2 = try store.fetch(Self.request("Note", "folder.name == 'f2'")).records.map(\.recordID)
        let updated = try store.updateRecords(matching: Self.request("Note", "folder.name == 'f2'"), set: ["status": "filed"])
        #expect(updated.recordIDs == inF2)
        #expect(try store.count(ofType: "Note", matching: FormatPredicate(format: "status == 'filed'")) == inF2.count)
    }
}

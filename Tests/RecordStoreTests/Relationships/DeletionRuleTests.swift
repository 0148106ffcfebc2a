import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Deletion rules (issue #30, item 1), each with its transaction, on every engine: cascade
/// (several levels, through a reference list), deny (refused with nothing changed, allowed when
/// the blocker is deleted too), nullify (a to-one set to nil, a list member removed, new change
/// tags), no action (dangling references that walks read as nil), and a save refused halfway
/// through its rules that changes nothing.
@Suite("Deletion rules")
struct DeletionRuleTests {
    static let schema: [RecordTypeSchema] = [
        // Cascade: a folder's notes, a note's attachments and pages; an attachment's locks deny.
        RecordTypeSchema(
            name: "Folder", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [.toMany("notes", destination: "Note", inverse: "folder", deletionRule: .cascade)]),
        RecordTypeSchema(
            name: "Note", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [
                .toOne("folder", destination: "Folder"),
                .toMany("attachments", destination: "Attachment", inverse: "note", deletionRule: .cascade),
                .referenceList("pages", destination: "Page", deletionRule: .cascade),
            ]),
        RecordTypeSchema(
            name: "Attachment", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [
                .toOne("note", destination: "Note"),
                .toMany("locks", destination: "Lock", inverse: "attachment", deletionRule: .deny),
            ]),
        RecordTypeSchema(name: "Page", fields: [FieldSchema(name: "name", type: .string)]),
        RecordTypeSchema(
            name: "Lock", fields: [FieldSchema(name: "name", type: .string)], relationships: [.toOne("attachment", destination: "Attachment")]),
        // Deny: a customer with orders.
        RecordTypeSchema(
            name: "Customer", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [.toMany("orders", destination: "Order", inverse: "customer", deletionRule: .deny)]),
        RecordTypeSchema(
            name: "Order", fields: [FieldSchema(name: "name", type: .string)], relationships: [.toOne("customer", destination: "Customer")]),
        // Nullify: an article's author (to-one) and tags (reference list).
        RecordTypeSchema(
            name: "Author", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [.toMany("articles", destination: "Article", inverse: "author", deletionRule: .nullify)]),
        RecordTypeSchema(
            name: "Tag", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [.toMany("articles", destination: "Article", inverse: "tags", deletionRule: .nullify)]),
        RecordTypeSchema(
            name: "Article", fields: [FieldSchema(name: "name", type: .string), FieldSchema(name: "words", type: .int64)],
            relationships: [.toOne("author", destination: "Author"), .referenceList("tags", destination: "Tag")]),
        // Rules on a to-one: a ticket cannot go while its event exists; a ticket takes its stub along.
        RecordTypeSchema(
            name: "Ticket", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [.toOne("event", destination: "Event", deletionRule: .deny), .toOne("stub", destination: "Stub", deletionRule: .cascade)]),
        RecordTypeSchema(name: "Event", fields: [FieldSchema(name: "name", type: .string)]),
        RecordTypeSchema(name: "Stub", fields: [FieldSchema(name: "name", type: .string)]),
        // No action: a shelf's books keep their reference.
        RecordTypeSchema(
            name: "Shelf", fields: [FieldSchema(name: "name", type: .string)],
            relationships: [.toMany("books", destination: "Book", inverse: "shelf", deletionRule: .noAction)]),
        RecordTypeSchema(
            name: "Book", fields: [FieldSchema(name: "name", type: .string)], relationships: [.toOne("shelf", destination: "Shelf")]),
    ]

    static func record(_ type: String, _ name: String, _ fields: [String: Value] = [:]) -> Record {
        var all = fields
        all["name"] = .string(name)
        return Record(recordType: type, recordID: RecordID(recordName: name), fields: all)
    }

    static func reference(_ name: String) -> Value { .reference(Reference(recordName: name)) }
    static func id(_ name: String) -> RecordID { RecordID(recordName: name) }

    static func makeStore(_ engine: TestEngine, _ records: [Record]) throws -> Store {
        let store = try engine.makeStore()
        try store.define(schema)
        try store.save(records)
        return store
    }

    /// The record names of a type, sorted.
    static func names(_ store: Store, _ type: String, _ format: String = "TRUEPREDICATE") throws -> [String] {
        try store.records(ofType: type, matching: FormatPredicate(format: format), sorts: [Sort("name")]).map(\.recordID.recordName)
    }

    /// Every record's change tag, by name (what "nothing changed" compares).
    static func changeTags(_ store: Store) throws -> [String: String] {
        var tags: [String: String] = [:]
        for type in schema.map(\.name) {
            for record in try store.records(ofType: type, matching: FormatPredicate(format: "TRUEPREDICATE"), sorts: []) {
                tags[record.recordID.recordName] = record.recordChangeTag ?? "?"
            }
        }
        return tags
    }

    static let notes: [Record] = [
        record("Folder", "f1"), record("Folder", "f2"),
        record("Note", "n1", ["folder": reference("f1"), "pages": .list([reference("p1"), reference("p2"), reference("ghost")])]),
        record("Note", "n2", ["folder": reference("f1")]),
        record("Note", "n3", ["folder": reference("f2"), "pages": .list([reference("p3")])]),
        record("Attachment", "a1", ["note": reference("n1")]),
        record("Attachment", "a2", ["note": reference("n2")]),
        record("Attachment", "a3", ["note": reference("n3")]),
        record("Page", "p1"), record("Page", "p2"), record("Page", "p3"), record("Page", "p4"),
    ]

    @Test("Cascade deletes several levels down, through inverse to-manys and a reference list", arguments: TestEngine.allCases)
    func cascade(engine: TestEngine) throws {
        let store = try Self.makeStore(engine, Self.notes)
        try store.delete([Self.id("f1")])
        #expect(try Self.names(store, "Folder") == ["f2"])
        #expect(try Self.names(store, "Note") == ["n3"])
        #expect(try Self.names(store, "Attachment") == ["a3"])
        #expect(try Self.names(store, "Page") == ["p3", "p4"])
        // A note deleted alone takes its attachments and pages, not its folder.
        try store.delete([Self.id("n3")])
        #expect(try Self.names(store, "Folder") == ["f2"])
        #expect(try Self.names(store, "Note") == [])
        #expect(try Self.names(store, "Attachment") == [])
        #expect(try Self.names(store, "Page") == ["p4"])
    }

    @Test("Deny refuses the delete naming the relationship and a blocker, and allows it when the blockers go too", arguments: TestEngine.allCases)
    func deny(engine: TestEngine) throws {
        let store = try Self.makeStore(engine, [
            Self.record("Customer", "c1"), Self.record("Customer", "c2"),
            Self.record("Order", "o2", ["customer": Self.reference("c1")]),
            Self.record("Order", "o1", ["customer": Self.reference("c1")]),
        ])
        let before = try Self.changeTags(store)
        #expect(throws: RecordStoreError.deleteDenied(Self.id("c1"), relationship: "orders", recordType: "Customer", blockedBy: Self.id("o1"))) {
            try store.delete([Self.id("c1")])
        }
        #expect(throws: RecordStoreError.deleteDenied(Self.id("c1"), relationship: "orders", recordType: "Customer", blockedBy: Self.id("o2"))) {
            try store.delete([Self.id("o1"), Self.id("c1"), Self.id("c2")])
        }
        #expect(try Self.changeTags(store) == before)
        #expect(try Self.names(store, "Customer") == ["c1", "c2"])
        #expect(try Self.names(store, "Order") == ["o1", "o2"])
        // In a modify, the refused delete is the culprit; nothing is saved.
        let result = try store.modify(saving: [Self.record("Customer", "c3")], deleting: [Self.id("c1")])
        #expect(result.errors == [
            Self.id("c1"): .deleteDenied(Self.id("c1"), relationship: "orders", recordType: "Customer", blockedBy: Self.id("o1")),
            Self.id("c3"): .batchRequestFailed(Self.id("c3")),
        ])
        #expect(try Self.names(store, "Customer") == ["c1", "c2"])
        // A blocker deleted by the same save does not block; an order moved to c2 by the same save neither.
        try store.modify(
            saving: [Self.record("Order", "o1", ["customer": Self.reference("c2")]).withChangeTag(before["o1"])],
            deleting: [Self.id("o2"), Self.id("c1")])
        #expect(try Self.names(store, "Customer") == ["c2"])
        #expect(try Self.names(store, "Order") == ["o1"])
        try store.delete([Self.id("c2"), Self.id("o1")])
        #expect(try Self.names(store, "Customer") == [])
        #expect(try Self.names(store, "Order") == [])
    }

    @Test("Nullify sets a to-one to nil and removes a list member, with new change tags and the rest intact", arguments: TestEngine.allCases)
    func nullify(engine: TestEngine) throws {
        let store = try Self.makeStore(engine, [
            Self.record("Author", "au1"), Self.record("Tag", "t1"), Self.record("Tag", "t2"),
            Self.record("Article", "ar1", ["author": Self.reference("au1"), "tags": .list([Self.reference("t1"), Self.reference("t2")]), "words": 10]),
            Self.record("Article", "ar2", ["author": Self.reference("au1"), "words": 20]),
            Self.record("Article", "ar3", ["tags": .list([Self.reference("t2")]), "words": 30]),
        ])
        let before = try Self.changeTags(store)
        let ar1 = try #require(try store.record(for: Self.id("ar1")))

        try store.delete([Self.id("t1")])
        let afterTag = try #require(try store.record(for: Self.id("ar1")))
        #expect(afterTag.fields == ["name": "ar1", "author": Self.reference("au1"), "tags": .list([Self.reference("t2")]), "words": 10])
        #expect(afterTag.recordChangeTag != ar1.recordChangeTag)
        #expect(afterTag.creationDate == ar1.creationDate)
        #expect(try #require(afterTag.modificationDate) >= (try #require(ar1.modificationDate)))
        var tags = try Self.changeTags(store)
        #expect(tags["ar2"] == before["ar2"])
        #expect(tags["ar3"] == before["ar3"])
        #expect(try Self.names(store, "Tag") == ["t2"])

        try store.delete([Self.id("au1")])
        let ar2 = try #require(try store.record(for: Self.id("ar2")))
        #expect(ar2.fields == ["name": "ar2", "words": 20])
        #expect(try #require(try store.record(for: Self.id("ar1"))).fields == ["name": "ar1", "tags": .list([Self.reference("t2")]), "words": 10])
        tags = try Self.changeTags(store)
        #expect(tags["ar2"] != before["ar2"])
        #expect(tags["ar3"] == before["ar3"])
        #expect(try Self.names(store, "Article", "author == nil") == ["ar1", "ar2", "ar3"])
        #expect(try Self.names(store, "Article", "ANY tags.name == 't2'") == ["ar1", "ar3"])
    }

    @Test("Nullify leaves alone a record the same save writes: the caller's version wins", arguments: TestEngine.allCases)
    func nullifyYieldsToTheCaller(engine: TestEngine) throws {
        let store = try Self.makeStore(engine, [
            Self.record("Author", "au1"),
            Self.record("Article", "ar1", ["author": Self.reference("au1"), "words": 10]),
            Self.record("Article", "ar2", ["author": Self.reference("au1"), "words": 20]),
        ])
        let stored = try #require(try store.record(for: Self.id("ar2")))
        var rewritten = stored
        rewritten["words"] = 21
        let result = try store.modify(saving: [rewritten], deleting: [Self.id("au1")])
        #expect(result.isSuccess)
        #expect(result.saveResults.keys.map(\.recordName) == ["ar2"])
        // The caller's ar2 keeps its (now dangling) reference; ar1 was nullified.
        #expect(try #require(try store.record(for: Self.id("ar2"))).fields == ["name": "ar2", "author": Self.reference("au1"), "words": 21])
        #expect(try #require(try store.record(for: Self.id("ar1"))).fields == ["name": "ar1", "words": 10])
        #expect(try Self.names(store, "Article", "author.name == nil") == ["ar1", "ar2"])
    }

    @Test("No action leaves the references dangling; walks read them as nil", arguments: TestEngine.allCases)
    func noAction(engine: TestEngine) throws {
        let store = try Self.makeStore(engine, [
            Self.record("Shelf", "s1", ["name": "Top"]), Self.record("Book", "b1", ["shelf": Self.reference("s1")]),
        ])
        let before = try Self.changeTags(store)
        #expect(try Self.names(store, "Book", "shelf.name == 's1'") == ["b1"])
        try store.delete([Self.id("s1")])
        #expect(try Self.names(store, "Shelf") == [])
        let book = try #require(try store.record(for: Self.id("b1")))
        #expect(book["shelf"] == Self.reference("s1"))
        #expect(book.recordChangeTag == before["b1"])
        #expect(try Self.names(store, "Book", "shelf.name == nil") == ["b1"])
        #expect(try Self.names(store, "Book", "shelf == nil") == [])
    }

    @Test("Rules on a to-one: deny while the referenced record exists, cascade to it", arguments: TestEngine.allCases)
    func toOneRules(engine: TestEngine) throws {
        let store = try Self.makeStore(engine, [
            Self.record("Event", "e1"), Self.record("Stub", "s1"), Self.record("Stub", "s2"),
            Self.record("Ticket", "t1", ["event": Self.reference("e1"), "stub": Self.reference("s1")]),
            Self.record("Ticket", "t2", ["event": Self.reference("gone"), "stub": Self.reference("s2")]),
        ])
        let before = try Self.changeTags(store)
        #expect(throws: RecordStoreError.deleteDenied(Self.id("t1"), relationship: "event", recordType: "Ticket", blockedBy: Self.id("e1"))) {
            try store.delete([Self.id("t1")])
        }
        #expect(try Self.changeTags(store) == before)
        // A dangling event does not deny; the stub goes with its ticket.
        try store.delete([Self.id("t2")])
        #expect(try Self.names(store, "Ticket") == ["t1"])
        #expect(try Self.names(store, "Stub") == ["s1"])
        try store.delete([Self.id("t1"), Self.id("e1")])
        #expect(try Self.names(store, "Ticket") == [])
        #expect(try Self.names(store, "Event") == [])
        #expect(try Self.names(store, "Stub") == [])
    }

    @Test("A save refused halfway through its rules changes nothing", arguments: TestEngine.allCases)
    func refusedHalfway(engine: TestEngine) throws {
        let store = try Self.makeStore(engine, Self.notes + [
            Self.record("Lock", "k1", ["attachment": Self.reference("a2")]),
            Self.record("Tag", "t1"), Self.record("Article", "ar1", ["tags": .list([Self.reference("t1")])]),
        ])
        let before = try Self.changeTags(store)
        // f1 cascades to n1 and n2, then to a1 and a2; a2's lock denies. t1 would nullify ar1.
        #expect(throws: RecordStoreError.deleteDenied(Self.id("a2"), relationship: "locks", recordType: "Attachment", blockedBy: Self.id("k1"))) {
            try store.delete([Self.id("t1"), Self.id("f1")])
        }
        #expect(try Self.changeTags(store) == before)
        #expect(try Self.names(store, "Note") == ["n1", "n2", "n3"])
        #expect(try #require(try store.record(for: Self.id("ar1")))["tags"] == .list([Self.reference("t1")]))
        // A conflicting save beside the deletions: nothing is deleted or nullified either.
        let result = try store.modify(saving: [Self.record("Page", "p4")], deleting: [Self.id("t1"), Self.id("n1")])
        #expect(!result.isSuccess)
        #expect(try Self.changeTags(store) == before)
        // Deleting the lock too lets the whole cascade through.
        try store.delete([Self.id("f1"), Self.id("k1"), Self.id("t1")])
        #expect(try Self.names(store, "Note") == ["n3"])
        #expect(try Self.names(store, "Attachment") == ["a3"])
        #expect(try Self.names(store, "Page") == ["p3", "p4"])
        #expect(try Self.names(store, "Lock") == [])
        #expect(try #require(try store.record(for: Self.id("ar1")))["tags"] == .list([]))
    }
}

extension Record {
    /// The record with this change tag (a version read earlier).
    fileprivate func withChangeTag(_ tag: String?) -> Record {
        var record = self
        record.recordChangeTag = tag
        return record
    }
}

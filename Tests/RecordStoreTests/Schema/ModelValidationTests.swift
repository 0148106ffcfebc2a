import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Validation from a Core Data model, at save, on every engine: each of Core Data's codes, the
/// failures of a save listed together (1560), defaults on new records only, counts of inverse
/// to-manys that a save changes from the other side, and nothing written by a refused save.
@Suite("Validation from a Core Data model")
struct ModelValidationTests {
    /// Version 1 of the library model (version 2, the bundle's current one, is the migration
    /// tests'): Item (abstract) > Book > Ebook, shelves of 2 to 3 books, tags (at most 2 per
    /// book), reviews that must name their book.
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Library.xcdatamodeld/Library.xcdatamodel").path

    static func reference(_ name: String) -> Value { .reference(Reference(recordName: name)) }
    static func id(_ name: String) -> RecordID { RecordID(recordName: name) }

    /// A book that breaks no rule, with these fields changed; its sku (unique in the model) is its name's own.
    static func book(_ name: String, _ fields: [String: Value] = [:], type: String = "Book") -> Record {
        let number = name.unicodeScalars.reduce(0) { ($0 * 31 + Int($1.value)) % 10_000 }
        var all: [String: Value] = ["name": .string("Book \(name)"), "sku": .string(String(format: "BOO-%04d", number))]
        for (key, value) in fields { all[key] = value }
        return Record(recordType: type, recordID: id(name), fields: all)
    }

    static func shelf(_ name: String, _ label: String?) -> Record {
        Record(recordType: "Shelf", recordID: id(name), fields: label.map { ["label": .string($0)] } ?? [:])
    }

    static func date(_ text: String) -> Value {
        .date(ISO8601DateFormatter().date(from: text) ?? Date.distantPast)
    }

    /// A store with the model applied, shelf s1 holding b1 and b2, and tag t1.
    static func makeStore(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.apply(try CoreDataModelReader.read(at: model))
        try store.save([
            shelf("s1", "Fiction"),
            book("b1", ["shelf": reference("s1")]), book("b2", ["shelf": reference("s1")]),
            Record(recordType: "Tag", recordID: id("t1"), fields: ["word": "classic"]),
        ])
        return store
    }

    /// The failures a save throws, as `recordName key code`; empty when it saves.
    static func failures(_ body: () throws(RecordStoreError) -> Void) -> [String] {
        do throws(RecordStoreError) {
            try body()
            return []
        } catch {
            guard case .validationFailed(let failures) = error else { return ["unexpected: \(error)"] }
            return failures.map { "\($0.recordID.recordName) \($0.key) \($0.code.rawValue)" }
        }
    }

    /// Every record's change tag, by name.
    static func changeTags(_ store: Store) throws -> [String: String] {
        var tags: [String: String] = [:]
        for type in ["Book", "Ebook", "Shelf", "Tag", "Review"] {
            for record in try store.records(ofType: type, matching: FormatPredicate(format: "TRUEPREDICATE"), sorts: []) {
                tags[record.recordID.recordName] = record.recordChangeTag ?? "?"
            }
        }
        return tags
    }

    @Test("Each of Core Data's validation codes, and nothing written by the refused save", arguments: TestEngine.allCases)
    func everyCode(engine: TestEngine) throws {
        let store = try Self.makeStore(engine)
        let before = try Self.changeTags(store)
        let long = String(repeating: "x", count: 41)
        let cases: [(saving: [Record], deleting: [RecordID], expected: [String])] = [
            // 1570: a required attribute (no default) and a required to-one.
            ([Record(recordType: "Book", recordID: Self.id("x"), fields: ["sku": "ABC-0001"])], [], ["x name 1570"]),
            ([Record(recordType: "Review", recordID: Self.id("r"), fields: ["stars": 3])], [], ["r book 1570"]),
            ([Self.shelf("s9", nil), Self.book("b8", ["shelf": Self.reference("s9")]), Self.book("b9", ["shelf": Self.reference("s9")])], [], ["s9 label 1570"]),
            // 1580: a required to-many left empty, then with fewer than its minimum.
            ([Self.shelf("s2", "Poetry")], [], ["s2 books 1580"]),
            ([Self.shelf("s2", "Poetry"), Self.book("b3", ["shelf": Self.reference("s2")])], [], ["s2 books 1580"]),
            // ... and a shelf left with one book by a book moved away, or deleted.
            ([Self.book("b1", ["inPrint": true]).with(changeTag: before["b1"])], [], ["s1 books 1580"]),
            ([], [Self.id("b2")], ["s1 books 1580"]),
            // 1590: a shelf given a fourth book by the books' side; a book with three tags.
            ([Self.book("b3", ["shelf": Self.reference("s1")]), Self.book("b4", ["shelf": Self.reference("s1")])], [], ["s1 books 1590"]),
            ([Self.book("b3", ["tags": .list([Self.reference("t1"), Self.reference("t2"), Self.reference("t3")])])], [], ["b3 tags 1590"]),
            // 1610 and 1620: numbers, an inherited attribute's and a sub-entity's own.
            ([Self.book("b3", ["price": 10000.5])], [], ["b3 price 1610"]),
            ([Self.book("b3", ["price": -1])], [], ["b3 price 1620"]),
            ([Self.book("e1", ["fileSize": 0], type: "Ebook")], [], ["e1 fileSize 1620"]),
            ([Record(recordType: "Review", recordID: Self.id("r"), fields: ["stars": 6, "book": Self.reference("b1")])], [], ["r stars 1610"]),
            // 1630 and 1640: dates.
            ([Self.book("b3", ["published": Self.date("2026-01-01T00:00:01Z")])], [], ["b3 published 1630"]),
            ([Self.book("b3", ["published": Self.date("1999-12-31T23:59:59Z")])], [], ["b3 published 1640"]),
            // 1660 and 1670: lengths, counted in UTF-16 code units ("é" is one, "𝄞" two).
            ([Self.book("b3", ["name": .string(long)])], [], ["b3 name 1660"]),
            ([Self.book("b3", ["name": "é"])], [], ["b3 name 1670"]),
            // 1680: the pattern, matched as a whole.
            ([Self.book("b3", ["sku": "ABC-12345"])], [], ["b3 sku 1680"]),
            // Several at once (the save's code is then 1560), in the records' order, fields in the schema's.
            ([Self.book("b3", ["name": "A", "sku": "abc", "pages": 0]), Self.book("b4", ["price": 20000])], [],
             ["b3 name 1670", "b3 sku 1680", "b3 pages 1620", "b4 price 1610"]),
        ]
        for (index, (saving, deleting, expected)) in cases.enumerated() {
            let thrown = Self.failures { () throws(RecordStoreError) in
                if deleting.isEmpty { try store.save(saving) } else { try store.delete(deleting) }
            }
            #expect(thrown == expected, "case \(index) on \(engine)")
        }
        // Lengths count UTF-16 code units: "𝄞" is 2, so "𝄞" alone is long enough.
        #expect(Self.failures { () throws(RecordStoreError) in try store.save([Self.book("b5", ["name": "𝄞"])]) } == [])
        try store.delete([Self.id("b5")])
        #expect(try Self.changeTags(store).filter { $0.key != "b5" } == before)
    }
}

extension Record {
    /// The record with this change tag (an update of the stored version).
    func with(changeTag: String?) -> Record {
        var record = self
        record.recordChangeTag = changeTag
        return record
    }

    /// The book moved to another shelf, or off every shelf.
    func moved(to shelf: String?) -> Record {
        var record = self
        record.fields["shelf"] = shelf.map { .reference(Reference(recordName: $0)) }
        return record
    }
}

extension ModelValidationTests {
    @Test("Defaults fill a new record's empty fields, never an update's", arguments: TestEngine.allCases)
    func defaults(engine: TestEngine) throws {
        let store = try Self.makeStore(engine)
        let stored = try #require(try store.record(for: Self.id("b1")))
        #expect(stored.fields["price"] == .double(0))
        #expect(stored.fields["inPrint"] == .bool(true))
        #expect(stored.fields["pages"] == nil)
        // An update that leaves an optional field out removes it: defaults are for inserts.
        var update = stored
        update.fields["price"] = nil
        update.fields["inPrint"] = .bool(false)
        let saved = try store.save([update])
        #expect(saved.first?.fields["price"] == nil)
        #expect(try store.record(for: Self.id("b1"))?.fields["price"] == nil)
        #expect(try store.record(for: Self.id("b1"))?.fields["inPrint"] == .bool(false))
        // A required field with a default is never missing on insert, and is on an update without it.
        update = try #require(try store.record(for: Self.id("b1")))
        update.fields["inPrint"] = nil
        #expect(Self.failures { () throws(RecordStoreError) in try store.save([update]) } == ["b1 inPrint 1570"])
    }

    @Test("One failure's code is its own, several are 1560, and the message lists each", arguments: [TestEngine.memory])
    func codesAndMessages(engine: TestEngine) throws {
        let store = try Self.makeStore(engine)
        do throws(RecordStoreError) {
            try store.save([Self.book("b3", ["price": -2])])
            Issue.record("saved")
        } catch {
            guard case .validationFailed(let failures) = error else { throw error }
            #expect(failures.code == .numberTooSmall)
            #expect(error.description == "The save broke a rule of the schema: Book 'b3': price is -2, below the minimum 0 (1620 NSValidationNumberTooSmallError)")
        }
        do throws(RecordStoreError) {
            try store.save([Self.book("b3", ["name": "A", "sku": "abc"])])
            Issue.record("saved")
        } catch {
            guard case .validationFailed(let failures) = error else { throw error }
            #expect(failures.code == .multipleErrors)
            #expect(error.description == """
                The save broke 2 rules of the schema (1560 NSValidationMultipleErrorsError):
                  Book 'b3': name is 1 character long, shorter than the minimum 2 (1670 NSValidationStringTooShortError)
                  Book 'b3': sku is "abc", which does not match the pattern "[A-Z]{3}-[0-9]{4}" (1680 NSValidationStringPatternMatchingError)
                """)
        }
        #expect(ValidationErrorCode.allCases.map(\.rawValue) == [1560, 1570, 1580, 1590, 1610, 1620, 1630, 1640, 1660, 1670, 1680])
    }

    @Test("A modify that is not atomic refuses each broken record alone; an atomic one names the culprits", arguments: TestEngine.allCases)
    func modifyPerRecord(engine: TestEngine) throws {
        let store = try Self.makeStore(engine)
        let good = Self.book("b3"), bad = Self.book("b4", ["pages": 9000])
        let separate = try store.modify(saving: [good, bad], deleting: [], atomically: false)
        #expect(try separate.saveResults[good.recordID]?.get().recordID == good.recordID)
        guard case .failure(.validationFailed(let failures))? = separate.saveResults[bad.recordID] else {
            Issue.record("b4 saved: \(String(describing: separate.saveResults[bad.recordID]))")
            return
        }
        #expect(failures.map(\.description) == ["Book 'b4': pages is 9000, above the maximum 5000 (1610 NSValidationNumberTooLargeError)"])
        let atomic = try store.modify(saving: [Self.book("b5"), Self.book("b6", ["price": -1])], deleting: [], atomically: true)
        guard case .failure(.batchRequestFailed)? = atomic.saveResults[Self.id("b5")],
              case .failure(.validationFailed(let own))? = atomic.saveResults[Self.id("b6")] else {
            Issue.record("\(atomic.saveResults)")
            return
        }
        #expect(own.map(\.key) == ["price"])
        #expect(try store.record(for: Self.id("b5")) == nil)
    }

    @Test("The schema prints the rules", arguments: [TestEngine.sqlite])
    func printsRules(engine: TestEngine) throws {
        let store = try Self.makeStore(engine)
        #expect(try store.schema(for: "Shelf")?.description == """
            Shelf
              label  string  required
              books -> Book  to-many, inverse of shelf, Nullify, required min 2 max 3
              unique (label)
            """)
        #expect(try store.schema(for: "Book")?.description == """
            Book: Item
              name       string  required min length 2 max length 40
              sku        string  required pattern "[A-Z]{3}-[0-9]{4}"
              price      double  default 0.0 min 0 max 10000
              pages      int64  min 1 max 5000
              published  date  from 2000-01-01T00:00:00Z until 2026-01-01T00:00:00Z
              inPrint    bool  required default YES
              shelf      reference  queryable
              tags       list of reference  queryable
              shelf -> Shelf  to-one, Nullify
              tags -> Tag  to-many, reference list, Nullify, max 2
              unique (sku)
            """)
    }
}

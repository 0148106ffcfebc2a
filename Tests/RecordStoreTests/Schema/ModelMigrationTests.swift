import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Lightweight migration from version 1 of the library model (`Library.xcdatamodel`) to version 2
/// (`Library 2.xcdatamodel`, the bundle's current version) on a populated store of every engine:
/// `Item.name` renamed `title`, `Ebook` renamed `DigitalBook`, `Book.edition` added,
/// `Item.price` made required with its default, `Book.published` removed, `Book.pages` indexed.
/// Every record, change tag and change token is checked after it, and the refusals change nothing.
@Suite("Migration between Core Data model versions")
struct ModelMigrationTests {
    static let bundle = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Library.xcdatamodeld").path
    static let version1 = bundle + "/Library.xcdatamodel"

    static func reference(_ name: String) -> Value { .reference(Reference(recordName: name)) }
    static func id(_ name: String) -> RecordID { RecordID(recordName: name) }
    static let types = ["Book", "Ebook", "DigitalBook", "Shelf", "Tag", "Review"]

    /// Every record of the store as `name: type {field: value, …}` lines, by record name, and the
    /// change tags and modification dates by name.
    static func contents(_ store: Store) throws -> (records: [String], tags: [String: String], dates: [String: Date]) {
        var records: [Record] = []
        for type in types where try store.schema(for: type) != nil {
            // A type's query returns its sub-entities' records too: each record is listed under its own type.
            records += try store.records(ofType: type, matching: FormatPredicate(format: "TRUEPREDICATE"), sorts: []).filter { $0.recordType == type }
        }
        records.sort { $0.recordID.recordName < $1.recordID.recordName }
        var tags: [String: String] = [:], dates: [String: Date] = [:]
        for record in records {
            tags[record.recordID.recordName] = record.recordChangeTag ?? "?"
            dates[record.recordID.recordName] = record.modificationDate ?? .distantPast
        }
        return (records.map(line), tags, dates)
    }

    static func line(_ record: Record) -> String {
        let fields = record.fields.keys.sorted().map { key -> String in
            guard let value = record.fields[key] else { return key }
            switch value {
            case .reference(let reference): return "\(key): →\(reference.recordName)"
            case .list(let members):
                let names = members.map { member -> String in
                    if case .reference(let reference) = member { return "→\(reference.recordName)" }
                    return "\(member)"
                }
                return "\(key): [\(names.joined(separator: ", "))]"
            default: return "\(key): \(value)"
            }
        }
        return "\(record.recordID.recordName): \(record.recordType) {\(fields.joined(separator: ", "))}"
    }

    /// A store with version 1 applied and records of every type; returns the store and two tokens:
    /// one taken before b2 was updated and e2 deleted, one taken after everything.
    static func populatedStore(_ engine: TestEngine) throws -> (store: Store, middle: ChangeToken, end: ChangeToken) {
        let store = try engine.makeStore()
        try store.apply(try CoreDataModelReader.read(at: version1))
        let published: Value = .date(Date(timeIntervalSinceReferenceDate: 0))
        try store.save([
            Record(recordType: "Shelf", recordID: id("s1"), fields: ["label": "Fiction"]),
            Record(recordType: "Book", recordID: id("b1"), fields: [
                "name": "Dune", "sku": "BOO-0001", "pages": 412, "published": published, "shelf": reference("s1"),
                "tags": .list([reference("t1")]),
            ]),
            Record(recordType: "Book", recordID: id("b2"), fields: ["name": "Emma", "sku": "BOO-0002", "shelf": reference("s1")]),
            Record(recordType: "Ebook", recordID: id("e1"), fields: [
                "name": "Ulysses", "sku": "EBO-0001", "pages": 730, "published": published, "fileSize": 2048, "tags": .list([reference("t1")]),
            ]),
            Record(recordType: "Ebook", recordID: id("e2"), fields: ["name": "Gone", "sku": "EBO-0002"]),
            Record(recordType: "Tag", recordID: id("t1"), fields: ["word": "classic"]),
            Record(recordType: "Review", recordID: id("r1"), fields: ["stars": 5, "book": reference("b1")]),
        ])
        let middle = try store.currentChangeToken()
        // An update that leaves the optional price out: version 2 fills in its default.
        var b2 = try #require(try store.record(for: id("b2")))
        b2.fields["price"] = nil
        try store.save([b2])
        try store.delete([id("e2")])
        return (store, middle, try store.currentChangeToken())
    }

    @Test("Version 1 to version 2 keeps every record, change tag and change token", arguments: TestEngine.allCases)
    func versionOneToTwo(engine: TestEngine) throws {
        let (store, middle, end) = try Self.populatedStore(engine)
        let before = try Self.contents(store)
        #expect(before.records == [
            "b1: Book {inPrint: true, name: \"Dune\", pages: 412, price: 0.0, published: 2001-01-01T00:00:00Z, shelf: →s1, sku: \"BOO-0001\", tags: [→t1]}",
            "b2: Book {inPrint: true, name: \"Emma\", shelf: →s1, sku: \"BOO-0002\"}",
            "e1: Ebook {fileSize: 2048, inPrint: true, name: \"Ulysses\", pages: 730, price: 0.0, published: 2001-01-01T00:00:00Z, sku: \"EBO-0001\", tags: [→t1]}",
            "r1: Review {book: →b1, stars: 5}",
            "s1: Shelf {label: \"Fiction\"}",
            "t1: Tag {word: \"classic\"}",
        ])

        let migration = try store.apply(try CoreDataModelReader.read(at: Self.bundle))
        #expect(migration.description == LibraryModelMigration.description)

        let after = try Self.contents(store)
        #expect(after.records == [
            "b1: Book {inPrint: true, pages: 412, price: 0.0, shelf: →s1, sku: \"BOO-0001\", tags: [→t1], title: \"Dune\"}",
            "b2: Book {inPrint: true, price: 0.0, shelf: →s1, sku: \"BOO-0002\", title: \"Emma\"}",
            "e1: DigitalBook {fileSize: 2048, inPrint: true, pages: 730, price: 0.0, sku: \"EBO-0001\", tags: [→t1], title: \"Ulysses\"}",
            "r1: Review {book: →b1, stars: 5}",
            "s1: Shelf {label: \"Fiction\"}",
            "t1: Tag {word: \"classic\"}",
        ])
        #expect(after.tags == before.tags)
        #expect(after.dates == before.dates)
        #expect(try store.schema(for: "Ebook") == nil)
        #expect(try store.schema(for: "DigitalBook")?.fields.map(\.name) == ["title", "sku", "price", "pages", "inPrint", "fileSize", "shelf", "tags", "edition"])
        #expect(try store.schema(for: "Book")?.field(named: "pages")?.indexDescription == "queryable sortable")

        // The renamed field and the new index answer queries; the inverse to-many follows the renamed type's books.
        let long = try store.records(ofType: "DigitalBook", matching: FormatPredicate(format: "pages > 500 AND title BEGINSWITH 'Uly'"), sorts: [])
        #expect(long.map(\.recordID.recordName) == ["e1"])
        let emma = try store.records(ofType: "Book", matching: FormatPredicate(format: "title == 'Emma' AND price == 0"), sorts: [])
        #expect(emma.map(\.recordID.recordName) == ["b2"])
        // The renamed type's reference list is walked through its members again.
        let tagged = try store.records(ofType: "DigitalBook", matching: FormatPredicate(format: "ANY tags.word == 'classic'"), sorts: [])
        #expect(tagged.map(\.recordID.recordName) == ["e1"])

        // Tokens issued before still work: the last one reports nothing, the middle one the
        // update of b2 and the deletion of e2, under the new names; from the start, everything.
        let sinceEnd = try store.changes(since: end)
        #expect(sinceEnd.changedRecords.isEmpty && sinceEnd.deletedRecords.isEmpty)
        let sinceMiddle = try store.changes(since: middle)
        #expect(sinceMiddle.changedRecords.map(Self.line) == ["b2: Book {inPrint: true, price: 0.0, shelf: →s1, sku: \"BOO-0002\", title: \"Emma\"}"])
        #expect(sinceMiddle.deletedRecords.map { "\($0.recordID.recordName) \($0.recordType)" } == ["e2 DigitalBook"])
        let all = try store.changes()
        #expect(all.changedRecords.map(\.recordID.recordName).sorted() == ["b1", "b2", "e1", "r1", "s1", "t1"])
        #expect(all.changedRecords.map(Self.line).sorted() == after.records)

        // Version 2 applied again migrates nothing; the store saves version 2's records.
        #expect(try store.apply(try CoreDataModelReader.read(at: Self.bundle)).description == "Library 2 (2) → Library 2 (2): nothing to migrate")
        try store.save([Record(recordType: "DigitalBook", recordID: Self.id("e3"), fields: ["title": "Beloved", "sku": "EBO-0003", "edition": 2])])
        #expect(try store.record(for: Self.id("e3"))?.fields["price"] == .double(0))
    }

    @Test("A live query hears of a migration: its results come again whole, migrated, with their change tags", arguments: TestEngine.allCases)
    func liveQueryHearsOfTheMigration(engine: TestEngine) async throws {
        let (store, _, _) = try Self.populatedStore(engine)
        let probe = ObservationProbe(store.observe(try RecordQuery(recordType: "Tag", predicate: .truePredicate, sorts: [Sort("word")])))
        let books = ObservationProbe(store.observe(try RecordQuery(recordType: "Book", predicate: .truePredicate, sorts: [Sort("sku")])))
        #expect(try await probe.next().records.records.map(Self.line) == ["t1: Tag {word: \"classic\"}"])
        let before = try await books.next().records.records
        #expect(before.map(Self.line) == [
            "b1: Book {inPrint: true, name: \"Dune\", pages: 412, price: 0.0, published: 2001-01-01T00:00:00Z, shelf: →s1, sku: \"BOO-0001\", tags: [→t1]}",
            "b2: Book {inPrint: true, name: \"Emma\", shelf: →s1, sku: \"BOO-0002\"}",
            "e1: Ebook {fileSize: 2048, inPrint: true, name: \"Ulysses\", pages: 730, price: 0.0, published: 2001-01-01T00:00:00Z, sku: \"EBO-0001\", tags: [→t1]}",
        ])

        _ = try await store.apply(try CoreDataModelReader.read(at: Self.bundle))
        // Every observer reads again: the books renamed and filled in, the tags as they were.
        let migrated = try await books.next()
        #expect(migrated.kind == .reset)
        #expect(migrated.difference.isEmpty)
        #expect(migrated.records.records.map(Self.line) == [
            "b1: Book {inPrint: true, pages: 412, price: 0.0, shelf: →s1, sku: \"BOO-0001\", tags: [→t1], title: \"Dune\"}",
            "b2: Book {inPrint: true, price: 0.0, shelf: →s1, sku: \"BOO-0002\", title: \"Emma\"}",
            "e1: DigitalBook {fileSize: 2048, inPrint: true, pages: 730, price: 0.0, sku: \"EBO-0001\", tags: [→t1], title: \"Ulysses\"}",
        ])
        #expect(migrated.records.records.map(\.recordChangeTag) == before.map(\.recordChangeTag))
        let tags = try await probe.next()
        #expect(tags.kind == .reset)
        #expect(tags.records.records.map(Self.line) == ["t1: Tag {word: \"classic\"}"])

        // Later commits come as changes again.
        _ = try await store.save([Record(recordType: "Tag", recordID: Self.id("t2"), fields: ["word": "modern"])])
        let added = try await probe.next()
        #expect(added.kind == .changed)
        #expect(added.records.records.map(Self.line) == ["t1: Tag {word: \"classic\"}", "t2: Tag {word: \"modern\"}"])
    }

    @Test("A change lightweight migration cannot do is refused before anything changes", arguments: TestEngine.allCases)
    func refusals(engine: TestEngine) throws {
        let (store, _, end) = try Self.populatedStore(engine)
        try store.apply(try CoreDataModelReader.read(at: Self.bundle))
        let before = try Self.contents(store)
        let schema = try store.schema()
        let version2 = try CoreDataModelReader.read(at: Self.bundle)

        // A type change, found in the model against the schema.
        var retyped = version2
        retyped.versionName = "Library 3"
        if let book = retyped.entities.firstIndex(where: { $0.name == "Book" }),
           let pages = retyped.entities[book].attributes.firstIndex(where: { $0.name == "pages" }) {
            retyped.entities[book].attributes[pages].type = .string
        }
        #expect(throws: RecordStoreError.migrationRefused([
            .typeChanged(recordType: "Book", field: "pages", from: .int64, to: .string),
            .typeChanged(recordType: "DigitalBook", field: "pages", from: .int64, to: .string),
        ])) { try store.apply(retyped) }

        // A new required attribute without a default on types that hold records: both refused
        // together, found in the records.
        var required = version2
        required.versionName = "Library 3"
        if let book = required.entities.firstIndex(where: { $0.name == "Book" }) {
            required.entities[book].attributes.append(CoreDataAttribute(name: "isbn", type: .string, isOptional: false))
        }
        #expect(throws: RecordStoreError.migrationRefused([
            .requiredWithoutDefault(recordType: "Book", field: "isbn"), .requiredWithoutDefault(recordType: "DigitalBook", field: "isbn"),
        ])) { try store.apply(required) }

        #expect(try Self.contents(store).records == before.records)
        #expect(try Self.contents(store).tags == before.tags)
        #expect(try store.schema() == schema)
        let sinceEnd = try store.changes(since: end)
        #expect(sinceEnd.changedRecords.isEmpty && sinceEnd.deletedRecords.isEmpty)
        #expect(try store.apply(version2).isEmpty)
    }

    @Test("A migration planned from another version than the store now has is refused", arguments: TestEngine.allCases)
    func stalePlan(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let planned = try CoreDataModelReader.read(at: Self.bundle).migration(from: try await store.engine.catalog())
        try await store.apply(try CoreDataModelReader.read(at: Self.version1))
        await #expect(throws: RecordStoreError.migrationRefused([.versionChanged(planned: nil, stored: ModelVersion(name: "Library", identifier: "1"))])) {
            try await store.engine.migrate(planned, progress: nil)
        }
        #expect(try await store.schema(for: "Ebook") != nil)
    }

    /// Staff: Person (abstract) > Employee (salary) > Manager (level); Person > Contractor.
    static let staff = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Staff.xcdatamodel").path

    @Test("A new parent entity moves a type in the hierarchy, its records kept", arguments: TestEngine.allCases)
    func changedParentEntity(engine: TestEngine) throws {
        let store = try engine.makeStore()
        var model = try CoreDataModelReader.read(at: Self.staff)
        try store.apply(model)
        try store.save([Record(recordType: "Manager", recordID: Self.id("m1"), fields: ["name": "Ada", "age": 40, "salary": 9000.0, "level": 3])])
        let tag = try store.record(for: Self.id("m1"))?.recordChangeTag
        func names(_ type: String) throws -> [String] {
            try store.records(ofType: type, matching: FormatPredicate(format: "TRUEPREDICATE"), sorts: []).map(\.recordID.recordName)
        }
        #expect(try names("Employee") == ["m1"])

        // Version 2: a manager is a person, no longer an employee (and so has no salary).
        let manager = try #require(model.entities.firstIndex { $0.name == "Manager" })
        model.entities[manager].parentEntity = "Person"
        model.versionIdentifier = "2"
        let migration = try store.apply(model)
        #expect(migration.steps.contains(.changedParentType(recordType: "Manager", from: "Employee", to: "Person")))
        #expect(migration.steps.contains(.removedField(recordType: "Manager", field: "salary")))
        #expect(SchemaMigrationStep.changedParentType(recordType: "Manager", from: "Employee", to: "Person").description
            == "change the parent of Manager from Employee to Person")

        #expect(try store.schema(for: "Manager")?.parentType == "Person")
        #expect(try names("Employee") == [])
        #expect(try names("Person") == ["m1"])
        let kept = try #require(try store.record(for: Self.id("m1")))
        #expect(kept.recordChangeTag == tag)
        #expect(kept.fields == ["name": "Ada", "age": 40, "level": 3])
    }
}

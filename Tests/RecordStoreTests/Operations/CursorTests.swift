import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

@Suite("Cursors: offset mode, signatures, binding")
struct CursorTests {
    func names(_ batch: QueryBatch) -> [String] { batch.records.map(\.recordID.recordName) }

    @Test("Offset mode shifts like CloudKit; keyset mode does not")
    func offsetShifting() throws {
        for store in try SmallStores.all() {
            try store.save(SmallStores.items(10))
            let query = try RecordQuery(recordType: "Item", predicate: .truePredicate, sorts: [Sort("recordName")])
            let offsetFirst = try store.firstBatch(matching: query, resultsLimit: 3, cursorMode: .offset)
            let keysetFirst = try store.firstBatch(matching: query, resultsLimit: 3, cursorMode: .keyset)
            #expect(names(offsetFirst) == ["item000", "item001", "item002"])
            #expect(names(keysetFirst) == ["item000", "item001", "item002"])
            try store.delete([RecordID(recordName: "item001")])
            let offsetNext = try store.nextBatch(continuingMatchFrom: #require(offsetFirst.cursor), resultsLimit: 3)
            let keysetNext = try store.nextBatch(continuingMatchFrom: #require(keysetFirst.cursor), resultsLimit: 3)
            #expect(names(offsetNext) == ["item004", "item005", "item006"])    // item003 skipped, as in CloudKit
            #expect(names(keysetNext) == ["item003", "item004", "item005"])
            // An insert before the offset repeats a record in offset mode.
            var early = Record(recordType: "Item", recordID: RecordID(recordName: "item000a"))
            early["group"] = "z"
            try store.save([early])
            let offsetThird = try store.nextBatch(continuingMatchFrom: #require(offsetNext.cursor), resultsLimit: 3)
            let keysetThird = try store.nextBatch(continuingMatchFrom: #require(keysetNext.cursor), resultsLimit: 3)
            #expect(names(offsetThird) == ["item006", "item007", "item008"])
            #expect(names(keysetThird) == ["item006", "item007", "item008"])
            let offsetLast = try store.nextBatch(continuingMatchFrom: #require(offsetThird.cursor), resultsLimit: 3)
            #expect(names(offsetLast) == ["item009"])
            #expect(offsetLast.cursor == nil)
        }
    }

    @Test("No cursor when the batch holds the last record")
    func exactEnd() throws {
        for store in try SmallStores.all() {
            try store.save(SmallStores.items(6))
            let query = try RecordQuery(recordType: "Item", predicate: .truePredicate)
            let first = try store.firstBatch(matching: query, resultsLimit: 3)
            #expect(first.cursor != nil)
            let second = try store.nextBatch(continuingMatchFrom: #require(first.cursor), resultsLimit: 3)
            #expect(names(second) == ["item003", "item004", "item005"])
            #expect(second.cursor == nil)
        }
    }

    @Test("Tampered, foreign, malformed and mismatched cursors are rejected with the exact error")
    func rejected() throws {
        let path = CitiesFixture.temporaryDatabasePath("cursor")
        let store = try Store.open(path: path)
        let other = try Store.open(path: CitiesFixture.temporaryDatabasePath("other"))
        for target in [store, other] { try target.save(SmallStores.items(10)) }
        let query = try RecordQuery(recordType: "Item", predicate: FormatPredicate(format: "group != 'z'"), sorts: [Sort("rank")])
        let cursor = try #require(try store.firstBatch(matching: query, resultsLimit: 4).cursor)
        let foreign = try #require(try other.firstBatch(matching: query, resultsLimit: 4).cursor)

        // Reopening the file keeps the key: the cursor still works.
        let reopened = try Store.open(path: path)
        #expect(names(try reopened.nextBatch(continuingMatchFrom: cursor, resultsLimit: 4)) == names(try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: 4)))

        #expect(throws: RecordStoreError.invalidCursor(.foreignStore)) { try store.nextBatch(continuingMatchFrom: foreign) }
        #expect(throws: RecordStoreError.invalidCursor(.foreignStore)) { try Store.inMemory().nextBatch(continuingMatchFrom: cursor) }

        var bytes = try #require(Base64URL.decode(cursor.stringValue))
        bytes[40] ^= 0x01
        let tampered = try QueryCursor(string: Base64URL.encode(bytes))
        #expect(throws: RecordStoreError.invalidCursor(.tampered)) { try store.nextBatch(continuingMatchFrom: tampered) }
        var signature = try #require(Base64URL.decode(cursor.stringValue))
        signature[signature.count - 1] ^= 0x80
        #expect(throws: RecordStoreError.invalidCursor(.tampered)) {
            try store.nextBatch(continuingMatchFrom: QueryCursor(string: Base64URL.encode(signature)))
        }

        #expect(throws: RecordStoreError.invalidCursor(.malformed)) { try QueryCursor(string: "not a cursor!") }
        #expect(throws: RecordStoreError.invalidCursor(.malformed)) { try QueryCursor(string: "abc") }
        #expect(throws: RecordStoreError.invalidCursor(.malformed)) { try QueryCursor(string: "") }

        let otherQuery = try RecordQuery(recordType: "Item", predicate: FormatPredicate(format: "group != 'y'"), sorts: [Sort("rank")])
        #expect(throws: RecordStoreError.invalidCursor(.queryMismatch(
            cursor: "Item WHERE group != \"z\" SORT BY rank ASC", given: "Item WHERE group != \"y\" SORT BY rank ASC"))) {
            try store.checkCursor(cursor, continues: otherQuery)
        }
        var resorted = query
        resorted.sorts = [Sort("rank", ascending: false)]
        #expect(throws: RecordStoreError.invalidCursor(.queryMismatch(
            cursor: "Item WHERE group != \"z\" SORT BY rank ASC", given: "Item WHERE group != \"z\" SORT BY rank DESC"))) {
            try store.checkCursor(cursor, continues: resorted)
        }
        #expect(throws: RecordStoreError.invalidCursor(.zoneMismatch(cursor: "_defaultZone", given: "Archive"))) {
            try store.checkCursor(cursor, continues: query, inZone: ZoneID(zoneName: "Archive"))
        }
        try store.checkCursor(cursor, continues: query)
        #expect(RecordStoreError.invalidCursor(.tampered).description == "Invalid cursor: the signature does not match: the cursor was altered")
    }

    @Test("The cursor carries its query: the string alone continues")
    func cursorCarriesQuery() throws {
        let store = Store.inMemory()
        let paris = Location(latitude: 48.8566, longitude: 2.3522)
        var placed = Record(recordType: "Item", recordID: RecordID(recordName: "placed"))
        placed["place"] = .location(paris)
        try store.save(SmallStores.items(9) + [placed])
        let query = try RecordQuery(
            recordType: "Item", predicate: FormatPredicate(format: "rank != nil OR title BEGINSWITH[cd] %@", "a"),
            sorts: [Sort("weight", ascending: false), Sort.distance(from: paris, key: "place")])
        let first = try store.firstBatch(matching: query, resultsLimit: 1)
        let text = try #require(first.cursor).stringValue
        let (decoded, zone) = try store.query(of: QueryCursor(string: text))
        #expect(decoded == query)
        #expect(zone == .default)
    }

    @Test("Desired keys: only the asked fields; an empty list gives metadata only")
    func desiredKeys() async throws {
        for store in try SmallStores.all() {
            try await store.save(SmallStores.items(5))
            let query = try RecordQuery(recordType: "Item", predicate: .truePredicate, sorts: [Sort("recordName")])
            let some = try await store.records(matching: query, desiredKeys: ["title", "rank"], resultsLimit: 2)
            #expect(some.records.map { Set($0.fields.keys) } == [["title"], ["title", "rank"]])
            #expect(some.records[1]["title"] == "beta 1")
            let none = try await store.records(matching: query, desiredKeys: [], resultsLimit: 5)
            #expect(none.records.allSatisfy { $0.fields.isEmpty && $0.recordChangeTag != nil && $0.creationDate != nil })
            let next = try await store.records(continuingMatchFrom: #require(some.cursor), desiredKeys: ["group"], resultsLimit: 2)
            #expect(next.records.map { $0.fields } == [["group": "c"], ["group": "d"]])
        }
    }

    @Test("Queries check their record type and rule profile")
    func queryChecks() throws {
        #expect(throws: RecordStoreError.invalidQuery("the record type is empty")) {
            try RecordQuery(recordType: "", predicate: .truePredicate)
        }
        #expect(throws: RecordStoreError.invalidRecordTypeName("no spaces")) {
            try RecordQuery(recordType: "no spaces", predicate: .truePredicate)
        }
        let all = try FormatPredicate(format: "ALL tags == 'x'")
        _ = try RecordQuery(recordType: "Item", predicate: all)
        #expect(throws: RecordStoreError.self) { try RecordQuery(recordType: "Item", predicate: all, rules: .cloudKit) }
        do {
            _ = try RecordQuery(recordType: "Item", predicate: all, rules: .cloudKit)
        } catch {
            guard case .predicate(.ruleViolation) = error else {
                Issue.record("expected a rule violation, got \(error)")
                return
            }
        }
        var query = try RecordQuery(recordType: "Item", predicate: .truePredicate)
        query.sorts = [Sort("rank")]
        #expect(query.description == "Item WHERE TRUEPREDICATE SORT BY rank ASC")
    }
}

import EngineTestSupport
import Foundation
import GRDB
import PredicateLanguage
import Testing
@testable import RecordStore
@testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// Issue #27, item 8: "Keep the bytes a client stored, and return them unchanged, as CloudKit does.
/// The store must never disagree with its own evaluator on the same record." Strings come back
/// byte for byte as saved or imported (scalars and list members), while comparisons, sorts and
/// index ranges work on the NFC form on every engine.
///
/// Swift's `String ==` is canonical equivalence, so these tests compare UTF-8 bytes.
@Suite("Stored strings keep the client's bytes")
struct StoredSpellingTests {
    /// "Bàmakɔ" decomposed, as the issue's imported file spelled it.
    static let decomposed = "Ba\u{300}mak\u{254}"
    /// The same name in NFC.
    static let composed = "B\u{E0}mak\u{254}"
    /// "São Paulo" decomposed.
    static let saoDecomposed = "Sa\u{303}o Paulo"

    static func bytes(_ value: Value?) -> [[UInt8]] {
        switch value {
        case .string(let string)?: [Array(string.utf8)]
        case .list(let members)?: members.flatMap { bytes($0) }
        default: []
        }
    }

    static func bamako() -> RecordStore.Record {
        Record(recordType: "City", recordID: RecordID(recordName: "bamako"), fields: [
            "name": .string(decomposed), "note": .string(saoDecomposed),
            "alternatenames": .list([.string(decomposed), .string(composed), .string("Bamako")]),
        ])
    }

    @Test("NFD text saved comes back byte-identical, from a fetch by ID, a query, and the save's answer", arguments: TestEngine.allCases)
    func savedBytesComeBack(engine: TestEngine) throws {
        let store = try engine.makeStore()
        let saved = try store.save([Self.bamako()])
        let original = Self.bamako()
        for record in [saved.first, try store.record(for: RecordID(recordName: "bamako")),
                       try store.records(ofType: "City", matching: .truePredicate).first] {
            let record = try #require(record, "\(engine)")
            #expect(Self.bytes(record["name"]) == [Array(Self.decomposed.utf8)], "\(engine)")
            #expect(Self.bytes(record["note"]) == [Array(Self.saoDecomposed.utf8)], "\(engine)")
            #expect(Self.bytes(record["alternatenames"]) == Self.bytes(original["alternatenames"]), "\(engine)")
        }
    }

    @Test("NFD text imported from a JSON lines file comes back byte-identical", arguments: TestEngine.allCases)
    func importedBytesComeBack(engine: TestEngine) throws {
        let directory = (TestEngine.temporaryDatabasePath("spelling-import") as NSString).deletingLastPathComponent
        let path = directory + "/cities-\(engine).jsonl"
        // JSON escapes, as a GeoNames export spells a combining grave accent.
        try #"{"id": "bamako", "name": "Ba\u0300mak\u0254", "alternatenames": ["Ba\u0300mako", "Bamako"]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let store = try engine.makeStore()
        var importer = RecordImporter(recordType: "City")
        importer.idField = "id"
        #expect(try importer.importFile(at: path, into: store).recordCount == 1)
        let record = try #require(try store.record(for: RecordID(recordName: "bamako")))
        #expect(Self.bytes(record["name"]) == [Array(Self.decomposed.utf8)], "\(engine)")
        #expect(Self.bytes(record["alternatenames"]) == [Array("Ba\u{300}mako".utf8), Array("Bamako".utf8)], "\(engine)")
    }

    @Test("==, BEGINSWITH, <, LIKE and list operators with NFC and NFD literals find the NFD record", arguments: TestEngine.allCases)
    func comparisonsSeeTheNormalizedForm(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.save([Self.bamako(), Record(recordType: "City", recordID: RecordID(recordName: "paris"), fields: ["name": "Paris"])])
        let finding = [
            "name == 'Ba\\u0300mak\\u0254'", "name == 'B\\u00E0mak\\u0254'",
            "name BEGINSWITH 'Ba\\u0300'", "name BEGINSWITH 'B\\u00E0m'",
            "name < 'B\\u00E1' AND name > 'Ba'", "name BETWEEN {'Ba\\u0300', 'Ba\\u0301'}",
            "name LIKE 'Ba\\u0300mak*'", "name LIKE 'B\\u00E0mak?'", "name LIKE 'B?mak*'", "name LIKE[cd] 'bamak*'",
            "name ENDSWITH 'a\\u0300mak\\u0254'", "name CONTAINS '\\u00E0'", "name ==[c] 'b\\u00E0mak\\u0254'",
            "note == 'S\\u00E3o Paulo'", "note LIKE 'Sa\\u0303o Paulo'",
            "ANY alternatenames BEGINSWITH 'Ba\\u0300mak'", "ANY alternatenames == 'B\\u00E0mak\\u0254'",
            "'Ba\\u0300mak\\u0254' IN alternatenames",
        ]
        for format in finding {
            let predicate = try FormatPredicate(format: format)
            #expect(try store.records(ofType: "City", matching: predicate).map(\.recordID.recordName) == ["bamako"], "\(engine): \(format)")
            #expect(try store.count(ofType: "City", matching: predicate) == 1, "\(engine): \(format)")
            // The evaluator says the same of the record the store returns.
            let fetched = try #require(try store.record(for: RecordID(recordName: "bamako")))
            #expect(try predicate.evaluate(with: fetched.fields), "\(engine): \(format)")
        }
        // "à" is one character: "Ba" is not a prefix of it, and "Ba?mak*" needs a second character.
        for format in ["name BEGINSWITH 'Ba'", "name LIKE 'Ba?mak*'", "name < 'B\\u00E0'", "ANY alternatenames BEGINSWITH 'Ba\\u0300mako'"] {
            #expect(try store.count(ofType: "City", matching: FormatPredicate(format: format)) == 0, "\(engine): \(format)")
        }
    }

    @Test("NFC and NFD spellings sort as one string (the record name breaks the tie) and page alike", arguments: TestEngine.allCases)
    func spellingsSortAsOne(engine: TestEngine) throws {
        let store = try engine.makeStore()
        // NFD "à" (61 CC 80) sorts before "b" by bytes, NFC "à" (C3 A0) after: code points of NFC decide.
        try store.save([
            Record(recordType: "Word", recordID: RecordID(recordName: "1-nfd"), fields: ["text": "a\u{300}"]),
            Record(recordType: "Word", recordID: RecordID(recordName: "2-nfc"), fields: ["text": "\u{E0}"]),
            Record(recordType: "Word", recordID: RecordID(recordName: "3-b"), fields: ["text": "b"]),
            Record(recordType: "Word", recordID: RecordID(recordName: "4-z"), fields: ["text": "z"]),
        ])
        for comparison in SortComparison.allCases {
            let sorted = try store.records(ofType: "Word", matching: .truePredicate, sorts: [Sort("text", comparison: comparison)])
            let expected = comparison == .compare || comparison == .caseInsensitive
                ? ["3-b", "4-z", "1-nfd", "2-nfc"] : ["1-nfd", "2-nfc", "3-b", "4-z"]
            #expect(sorted.map(\.recordID.recordName) == expected, "\(engine): \(comparison)")
            #expect(Self.bytes(sorted.first { $0.recordID.recordName == "1-nfd" }?["text"]) == [Array("a\u{300}".utf8)], "\(engine)")
        }
        // Paging by keyset from the NFD record continues after it, at its NFC position.
        let first = try store.firstBatch(matching: RecordQuery(recordType: "Word", predicate: .truePredicate, sorts: [Sort("text")]), resultsLimit: 3)
        #expect(first.records.map(\.recordID.recordName) == ["3-b", "4-z", "1-nfd"], "\(engine)")
        let cursor = try #require(first.cursor, "\(engine)")
        #expect(try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: 3).records.map(\.recordID.recordName) == ["2-nfc"], "\(engine)")
    }

    @Test("An update from NFD to NFC and back stores each spelling exactly", arguments: TestEngine.allCases)
    func updatesReplaceTheSpelling(engine: TestEngine) throws {
        let store = try engine.makeStore()
        var record = try #require(try store.save([Self.bamako()]).first)
        record["name"] = .string(Self.composed)
        record = try #require(try store.save([record]).first)
        #expect(Self.bytes(try store.record(for: record.recordID)?["name"]) == [Array(Self.composed.utf8)], "\(engine)")
        record["name"] = .string(Self.decomposed)
        try store.save([record])
        #expect(Self.bytes(try store.record(for: record.recordID)?["name"]) == [Array(Self.decomposed.utf8)], "\(engine)")
    }

    @Test("Aggregates and group keys are computed values: every engine answers them in NFC", arguments: TestEngine.allCases)
    func aggregatesAnswerInNFC(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.save([Self.bamako(), Record(recordType: "City", recordID: RecordID(recordName: "b2"), fields: ["name": .string(Self.composed)])])
        var request = FetchRequest(entityName: "City", resultType: .dictionaries)
        request.propertiesToFetch = ["name", .aggregate(AggregateProperty(name: "first", function: .min, key: "name")),
                                     .aggregate(AggregateProperty(name: "count", function: .count, key: "name"))]
        request.propertiesToGroupBy = ["name"]
        let rows = try store.fetch(request).dictionaries
        #expect(rows.count == 1, "\(engine)")
        #expect(Self.bytes(rows.first?["name"]) == [Array(Self.composed.utf8)], "\(engine)")
        #expect(Self.bytes(rows.first?["first"]) == [Array(Self.composed.utf8)], "\(engine)")
        #expect(rows.first?["count"] == .int(2), "\(engine)")
    }

    @Test("The SQL engines store the spelling only when it is not NFC (the NFC column holds every other string)")
    func spellingColumnHoldsOnlyOtherSpellings() throws {
        let path = TestEngine.temporaryDatabasePath("spelling-column")
        do {
            let store = try Store.open(path: path)
            try store.save([Self.bamako(), Record(recordType: "City", recordID: RecordID(recordName: "paris"), fields: ["name": "Paris"])])
        }
        let rows = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: #"SELECT "$recordName", "name", "name$raw" FROM "City" ORDER BY "$recordName""#)
        }
        #expect(rows.map { $0[0] as String } == ["bamako", "paris"])
        #expect(rows.map { Array(($0[1] as String).utf8) } == [Array(Self.composed.utf8), Array("Paris".utf8)])
        #expect(rows.map { ($0[2] as String?).map { Array($0.utf8) } } == [Array(Self.decomposed.utf8), nil])
        #expect(StoredSpelling.value(of: .string(Self.composed)) == .null)
        #expect(StoredSpelling.value(of: .string(Self.decomposed)) == .text(Self.decomposed))
        #expect(StoredSpelling.value(of: .int(1)) == .null)
    }

    @Test("A layout-2 SQLite file (strings in NFC, no spelling column) opens, reads back, and takes new spellings")
    func layoutTwoIsMigrated() throws {
        let path = TestEngine.temporaryDatabasePath("layout2")
        do {
            let store = try Store.open(path: path)
            try store.save([Record(recordType: "City", recordID: RecordID(recordName: "old"), fields: ["name": .string(Self.composed)])])
        }
        // Rewrite the file as layout 2 wrote it: no spelling column.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: #"ALTER TABLE "City" DROP COLUMN "name$raw""#)
            try db.execute(sql: #"UPDATE "$metadata" SET value = 2 WHERE name = 'layoutVersion'"#)
        }
        try queue.close()

        let reopened = try Store.open(path: path)
        #expect(Self.bytes(try reopened.record(for: RecordID(recordName: "old"))?["name"]) == [Array(Self.composed.utf8)])
        try reopened.save([Record(recordType: "City", recordID: RecordID(recordName: "new"), fields: ["name": .string(Self.decomposed)])])
        #expect(Self.bytes(try reopened.record(for: RecordID(recordName: "new"))?["name"]) == [Array(Self.decomposed.utf8)])
        #expect(try reopened.count(ofType: "City", matching: FormatPredicate(format: "name == 'B\\u00E0mak\\u0254'")) == 2)
        let version = try DatabaseQueue(path: path).read { db in
            try Int64.fetchOne(db, sql: #"SELECT value FROM "$metadata" WHERE name = 'layoutVersion'"#)
        }
        #expect(version == SQLiteLayoutMigration.currentVersion)
    }
}

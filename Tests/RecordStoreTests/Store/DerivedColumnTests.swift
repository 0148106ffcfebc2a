import EngineTestSupport
import Foundation
import GRDB
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// The derived columns of string fields (folded forms and collation sort keys): what they hold,
/// that `[c]`/`[cd]` searches and localized sorts seek their indexes with the memory engine's
/// answers, that a layout-1 file gains them when opened, and that a bulk load builds its
/// deferred indexes (also after being cut off).
@Suite("Derived columns: folded search and sort keys")
struct DerivedColumnTests {
    static func place(_ name: String, _ title: String) -> RecordStore.Record {
        RecordStore.Record(recordType: "Place", recordID: RecordID(recordName: name), fields: [
            "title": .string(title), "names": .list(alternateNames[name, default: []].map(Value.string)),
        ])
    }

    static let alternateNames: [String: [String]] = [
        "a": ["Sampa", "São Paulo"], "d": ["STRASSE", "Strasse"], "f": ["Constantinople", "İSTANBUL"], "h": ["santos"],
        "k": ["e\u{301}cole"],
    ]

    /// Saves records into a `Place` type with every index type (``IndexPolicy/all``): these tests
    /// are about the derived columns, which only indexed string fields have.
    static func saveFullyIndexed(_ records: [RecordStore.Record], into store: Store) throws {
        try store.define(RecordTypeSchema(name: "Place", justInTimeIndexes: .all))
        try store.save(records)
    }

    static let places = [
        place("a", "São Paulo"), place("b", "SAO PAULO"), place("c", "Sao Tome"), place("d", "Straße"),
        place("e", "STRASSE"), place("f", "İstanbul"), place("g", "istanbul"), place("h", "Santos"),
        place("i", "sa"), place("j", "São"), place("k", "E\u{301}cole"), place("l", "ÉCOLE"), place("m", "File 10"),
        place("n", "File 2"), place("o", "file 1"),
    ]

    @Test("Folding and sort keys as the evaluator and UnicodeCollation make them")
    func derivedValues() {
        #expect(DerivedColumn.caseAndDiacriticFolded.value(of: "São Paulo") == .text("sao paulo"))
        #expect(DerivedColumn.caseFolded.value(of: "Straße") == .text("strasse"))
        #expect(DerivedColumn.caseFolded.value(of: "E\u{301}cole") == .text("\u{E9}cole"))
        #expect(DerivedColumn.localizedKey.value(of: "b") == .blob(Data(UnicodeCollation.localized.sortKey("b"))))
        #expect(DerivedColumn.caseFolded.value(of: .int(3)) == .null)
        let name = FieldSchema(name: "name", type: .string)
        #expect(DerivedColumn.columns(for: name) == DerivedColumn.allCases)
        #expect(DerivedColumn.columns(for: FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: false)) == [.caseFolded, .caseAndDiacriticFolded])
        #expect(DerivedColumn.columns(for: FieldSchema(name: "n", type: .int64)) == [])
        #expect(SQLPlanner.prefixUpperBound("sao") == "sap")
        #expect(SQLPlanner.prefixUpperBound("a\u{10FFFF}") == "b")
        #expect(SQLPlanner.prefixUpperBound("\u{D7FF}") == "\u{E000}")
        #expect(SQLPlanner.prefixUpperBound("\u{10FFFF}") == nil)
    }

    @Test("Folded searches and localized sorts give the memory engine's records, in its order", arguments: TestEngine.allCases)
    func foldedSearchesMatchMemory(engine: TestEngine) throws {
        let store = try engine.makeStore()
        let memory = Store.inMemory()
        for target in [store, memory] { try Self.saveFullyIndexed(Self.places, into: target) }
        let expectations: [(String, [String])] = [
            ("title BEGINSWITH[cd] 'sao'", ["a", "b", "c", "j"]),
            ("title ==[cd] 'sao paulo'", ["a", "b"]),
            ("title ==[c] 'são paulo'", ["a"]),
            ("title ==[c] 'strasse'", ["d", "e"]),
            ("title LIKE[c] 'sa*'", ["b", "c", "h", "i"]),
            ("title LIKE[cd] 's?o*'", ["a", "b", "c", "j"]),
            ("title IN[cd] {'ecole', 'santos'}", ["h", "k", "l"]),
            ("title !=[cd] 'sao paulo'", ["c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o"]),
            ("NOT title BEGINSWITH[c] 's'", ["f", "g", "k", "l", "m", "n", "o"]),
            ("title BEGINSWITH 'S'", ["a", "b", "c", "d", "e", "h", "j"]),
            ("title BEGINSWITH[c] 'é'", ["k", "l"]),
            ("title BEGINSWITH[c] ''", []),
            ("title ==[c] 'i̇stanbul'", ["f"]),
            ("title CONTAINS[cd] 'ao'", ["a", "b", "c", "j"]),
            ("title CONTAINS[c] 'ã'", ["a", "j"]),
            ("title ENDSWITH[cd] 'PAULO'", ["a", "b"]),
            ("title ENDSWITH 'le'", ["k"]),
            ("title CONTAINS 'ss'", []),
            ("title CONTAINS[c] 'ss'", ["d", "e"]),
            ("title CONTAINS[cd] '\u{301}'", []),
            ("ANY names CONTAINS[cd] 'paulo'", ["a"]),
            ("ANY names BEGINSWITH[cd] 'sao'", ["a"]),
            ("ANY names ==[c] 'strasse'", ["d"]),
            ("ANY names LIKE[cd] 'sa*'", ["a", "h"]),
            ("ANY names BEGINSWITH 'S'", ["a", "d"]),
            ("ANY names IN[cd] {'ECOLE', 'constantinople'}", ["f", "k"]),
            ("ANY names !=[c] 'santos'", ["a", "d", "f", "k"]),
        ]
        for (format, names) in expectations {
            let predicate = try FormatPredicate(format: format)
            let sorted = [Sort("recordName")]
            #expect(try store.records(ofType: "Place", matching: predicate, sorts: sorted).map(\.recordID.recordName) == names, "\(format)")
            #expect(try memory.records(ofType: "Place", matching: predicate, sorts: sorted).map(\.recordID.recordName) == names, "\(format)")
        }
        for comparison in SortComparison.allCases {
            for ascending in [true, false] {
                let sorts = [Sort("title", ascending: ascending, comparison: comparison)]
                let expected = try memory.records(ofType: "Place", matching: .truePredicate, sorts: sorts).map(\.recordID.recordName)
                #expect(try store.records(ofType: "Place", matching: .truePredicate, sorts: sorts).map(\.recordID.recordName) == expected,
                        "\(comparison) \(ascending)")
            }
        }
        let standard = try store.records(ofType: "Place", matching: FormatPredicate(format: "title BEGINSWITH[c] 'file'"),
                                         sorts: [Sort("title", comparison: .localizedStandard)])
        #expect(standard.map(\.recordID.recordName) == ["o", "n", "m"])
    }

    @Test("explain names the folded and sort-key indexes SQLite seeks")
    func explainNamesTheIndexes() throws {
        let store = try Store.open(path: TestEngine.temporaryDatabasePath("derived-explain"))
        try Self.saveFullyIndexed(Self.places, into: store)
        let folded = try store.explain(ofType: "Place", matching: FormatPredicate(format: "title BEGINSWITH[cd] 'sao'"))
        #expect(folded.indexesUsed == ["Place$title$cd$index"], "\(folded)")
        let member = try store.explain(ofType: "Place", matching: FormatPredicate(format: "ANY names BEGINSWITH[cd] 'sao'"))
        #expect(member.indexesUsed.contains("Place$list$cd"), "\(member)")
        #expect(member.residual == nil)
        #expect(folded.residual == nil)
        let like = try store.explain(ofType: "Place", matching: FormatPredicate(format: "title LIKE[c] 'sa*o'"))
        #expect(like.indexesUsed == ["Place$title$c$index"], "\(like)")
        // Issue #27 item 7: the pattern itself is GLOB on the folded column, inside the prefix's range: no residual.
        #expect(like.residual == nil, "\(like)")
        #expect(like.sql.contains(#"t."title$c" GLOB ?"#), "\(like)")
        let sorted = try store.explain(ofType: "Place", matching: .truePredicate, sorts: [Sort("title", comparison: .localized)])
        #expect(sorted.indexesUsed == ["Place$title$localized$index"], "\(sorted)")
        // Indexes end with the record name: an ascending sort by a field, then the name, needs no
        // sort step (a descending one sorts each group of equal values by name, ascending).
        for sort in [Sort("title"), Sort("title", comparison: .localizedStandard)] {
            let plan = try store.explain(ofType: "Place", matching: .truePredicate, sorts: [sort])
            #expect(!plan.queryPlanDetails.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }

    @Test("A layout-1 file (no derived columns) gains them when opened, filled and indexed")
    func layoutOneIsMigrated() throws {
        let path = TestEngine.temporaryDatabasePath("layout1")
        try Self.saveFullyIndexed(Self.places, into: Store.open(path: path))
        // Rewrite the file as layout 1 had it: no derived columns or their indexes.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for derived in DerivedColumn.allCases {
                try db.execute(sql: "DROP INDEX \(SQLiteDialect.quote(TableLayout.derivedIndex("Place", field: "title", derived)))")
                try db.execute(sql: "ALTER TABLE \"Place\" DROP COLUMN \(SQLiteDialect.quote(TableLayout.derivedColumn("title", derived)))")
            }
            try db.execute(sql: #"DROP INDEX "Place$title$index""#)
            try db.execute(sql: #"CREATE INDEX "Place$title$index" ON "Place" ("$zone", "title")"#)
            try db.execute(sql: #"DROP INDEX "Place$list$c""#)
            try db.execute(sql: #"DROP INDEX "Place$list$cd""#)
            try db.execute(sql: #"ALTER TABLE "Place$list" DROP COLUMN "value$c""#)
            try db.execute(sql: #"ALTER TABLE "Place$list" DROP COLUMN "value$cd""#)
            try db.execute(sql: #"UPDATE "$metadata" SET value = 1 WHERE name = 'layoutVersion'"#)
        }
        try queue.close()
        let reports = Reports()
        let store = try Store.open(path: path) { reports.append($0) }
        // The last report of each task says it is complete.
        #expect(reports.last(of: #"Computing c, cd, localized, localizedCaseInsensitive, localizedStandard of Place.title"#)
            == StoreOpeningProgress(task: "Computing c, cd, localized, localizedCaseInsensitive, localizedStandard of Place.title", completed: 15, total: 15))
        #expect(reports.last(of: "Folding the list members of Place") == StoreOpeningProgress(task: "Folding the list members of Place", completed: 8, total: 8))
        // Opening a file that is up to date reports nothing.
        let quiet = Reports()
        _ = try Store.open(path: path) { quiet.append($0) }
        #expect(quiet.all.isEmpty)
        #expect(try store.count(ofType: "Place", matching: FormatPredicate(format: "title BEGINSWITH[cd] 'sao'")) == 4)
        #expect(try store.count(ofType: "Place", matching: FormatPredicate(format: "ANY names ==[cd] 'istanbul'")) == 1)
        let reopened = try DatabaseQueue(path: path)
        let indexes = try reopened.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'Place$title$%' ORDER BY name")
        }
        #expect(indexes == ["Place$title$c$index", "Place$title$cd$index", "Place$title$index", "Place$title$localized$index",
                            "Place$title$localizedCaseInsensitive$index", "Place$title$localizedStandard$index"])
        let fieldIndex = try reopened.read { db in try String.fetchOne(db, sql: #"SELECT sql FROM sqlite_master WHERE name = 'Place$title$index'"#) }
        #expect(fieldIndex?.hasSuffix(#"("$zone", "title", "$recordName")"#) == true, "\(fieldIndex ?? "")")
        let version = try reopened.read { db in try Int64.fetchOne(db, sql: #"SELECT value FROM "$metadata" WHERE name = 'layoutVersion'"#) }
        #expect(version == SQLiteLayoutMigration.currentVersion)
        try reopened.close()
    }

    @Test("Dropping the index types of several string fields at once drops each field's derived columns and indexes")
    func indexChangesDropDerivedColumnsOfEveryField() throws {
        let path = TestEngine.temporaryDatabasePath("index-changes")
        let store = try Store.open(path: path)
        func declare(_ indexed: Bool) throws {
            try store.define(RecordTypeSchema(name: "Place", fields: [
                FieldSchema(name: "title", type: .string, isQueryable: indexed, isSortable: indexed),
                FieldSchema(name: "subtitle", type: .string, isQueryable: indexed, isSortable: indexed),
            ]))
        }
        try declare(true)
        _ = try store.save(Self.places.map { place in
            var place = place
            place.fields["names"] = nil
            place["subtitle"] = place["title"]
            return place
        })
        let expected = try store.records(ofType: "Place", matching: FormatPredicate(format: "subtitle BEGINSWITH[cd] 'sao'"), sorts: [Sort("title")])
        func derived() throws -> (columns: [String], indexes: [String]) {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { db in
                let columns = try db.columns(in: "Place").map(\.name).filter { $0.hasPrefix("title$") || $0.hasPrefix("subtitle$") }.sorted()
                let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND (name LIKE 'Place$title$%' OR name LIKE 'Place$subtitle$%') ORDER BY name")
                return (columns, indexes)
            }
        }
        let forms = ["c", "cd", "localized", "localizedCaseInsensitive", "localizedStandard", "raw"]
        let indexed = try derived()
        #expect(indexed.columns == forms.map { "subtitle$\($0)" } + forms.map { "title$\($0)" })
        #expect(indexed.indexes.count == 12)
        try declare(false)
        // Only the raw form, which every string keeps, is left of either field.
        let dropped = try derived()
        #expect(dropped.columns == ["subtitle$raw", "title$raw"])
        #expect(dropped.indexes == [])
        #expect(try store.records(ofType: "Place", matching: FormatPredicate(format: "subtitle BEGINSWITH[cd] 'sao'"), sorts: [Sort("title")]) == expected)
        #expect(expected.count == 4)
    }

    @Test("Sort keys made by another collation version are computed again when the store opens")
    func staleSortKeysAreRecomputed() throws {
        let path = TestEngine.temporaryDatabasePath("collation-version")
        try Self.saveFullyIndexed(Self.places, into: Store.open(path: path))
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: #"UPDATE "Place" SET "title$localized" = X'00'"#)
            try db.execute(sql: #"UPDATE "$metadata" SET value = '0.0.0.0' WHERE name = 'collationVersion'"#)
        }
        try queue.close()
        let store = try Store.open(path: path)
        let sorts = [Sort("title", comparison: .localized)]
        let expected = try Self.memoryOrder(sorts)
        #expect(try store.records(ofType: "Place", matching: .truePredicate, sorts: sorts).map(\.recordID.recordName) == expected)
    }

    /// Progress reports collected from the opening thread.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [StoreOpeningProgress] = []
        func append(_ report: StoreOpeningProgress) { lock.withLock { reports.append(report) } }
        var all: [StoreOpeningProgress] { lock.withLock { reports } }
        func last(of task: String) -> StoreOpeningProgress? { all.last { $0.task == task } }
    }

    static func memoryOrder(_ sorts: [Sort]) throws -> [String] {
        let memory = Store.inMemory()
        try memory.save(places)
        return try memory.records(ofType: "Place", matching: .truePredicate, sorts: sorts).map(\.recordID.recordName)
    }

    @Test("A bulk load cut off before its end has its indexes built when the store opens")
    func deferredIndexesAreBuiltOnOpen() throws {
        let path = TestEngine.temporaryDatabasePath("deferred")
        do {
            let engine = try SQLiteEngine(path: path)
            try SynchronousCall.wait { try await engine.beginBulkLoad(of: "Place", incoming: 1_000) }
            let store = Store(engine: engine)
            try Self.saveFullyIndexed(Self.places, into: store)
            // Queries are exact while the indexes wait.
            #expect(try store.count(ofType: "Place", matching: FormatPredicate(format: "title ==[cd] 'sao paulo'")) == 2)
            let indexes = try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'Place$%' ORDER BY name")
            }
            #expect(indexes == ["Place$$record", "Place$list$record"])
            #expect(try store.count(ofType: "Place", matching: FormatPredicate(format: "ANY names ==[cd] 'istanbul'")) == 1)
        }
        let store = try Store.open(path: path)
        #expect(try store.count(ofType: "Place", matching: FormatPredicate(format: "title ==[cd] 'sao paulo'")) == 2)
        let queue = try DatabaseQueue(path: path)
        let indexes = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'Place$%' ORDER BY name")
        }
        #expect(indexes.contains("Place$title$cd$index") && indexes.contains("Place$title$index") && indexes.contains("Place$list$value")
                && indexes.contains("Place$list$cd"))
        let pending = try queue.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "$metadata" WHERE name LIKE 'deferredIndexes:%'"#) }
        #expect(pending == 0)
        try queue.close()
    }
}

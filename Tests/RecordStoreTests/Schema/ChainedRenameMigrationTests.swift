import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Renames that depend on each other in one model version, as Core Data's lightweight migration
/// maps every `renamingIdentifier` at once: a chain of fields (`x` → `y` → `z` → `w`), two
/// record types that swap names, and a chain of record types (`D` → `E` while `E` → `F`), on a
/// populated store of every engine. Records keep their values, change tags and history; the
/// ambiguous cases are refused before anything changes.
@Suite("Chained and swapped renames between model versions")
struct ChainedRenameMigrationTests {
    static func text(_ name: String, renaming: String? = nil) -> CoreDataAttribute {
        CoreDataAttribute(name: name, type: .string, renamingIdentifier: renaming)
    }

    static let version1 = CoreDataModel(versionName: "Renames", versionIdentifier: "1", entities: [
        CoreDataEntity(name: "A", attributes: [text("x"), text("y"), text("z")]),
        CoreDataEntity(name: "B", attributes: [CoreDataAttribute(name: "p", type: .integer64)]),
        CoreDataEntity(name: "C", attributes: [text("q")]),
        CoreDataEntity(name: "D", attributes: [text("d")]),
        CoreDataEntity(name: "E", attributes: [text("e")]),
    ])

    static let version2 = CoreDataModel(versionName: "Renames 2", versionIdentifier: "2", entities: [
        CoreDataEntity(name: "A", attributes: [text("y", renaming: "x"), text("z", renaming: "y"), text("w", renaming: "z")]),
        CoreDataEntity(name: "C", attributes: [CoreDataAttribute(name: "p", type: .integer64)], renamingIdentifier: "B"),
        CoreDataEntity(name: "B", attributes: [text("q")], renamingIdentifier: "C"),
        CoreDataEntity(name: "E", attributes: [text("d")], renamingIdentifier: "D"),
        CoreDataEntity(name: "F", attributes: [text("e")], renamingIdentifier: "E"),
    ])

    static func id(_ name: String) -> RecordID { RecordID(recordName: name) }

    /// Every record as `name: type {field: value, …}`, by record name, and the change tags.
    static func contents(_ store: Store, types: [String]) throws -> (lines: [String], tags: [String: String]) {
        var records: [Record] = []
        for type in types { records += try store.records(ofType: type, matching: FormatPredicate(format: "TRUEPREDICATE"), sorts: []) }
        records.sort { $0.recordID.recordName < $1.recordID.recordName }
        let lines = records.map { record in
            let fields = record.fields.keys.sorted().map { "\($0): \(record.fields[$0] ?? .null)" }
            return "\(record.recordID.recordName): \(record.recordType) {\(fields.joined(separator: ", "))}"
        }
        return (lines, Dictionary(uniqueKeysWithValues: records.map { ($0.recordID.recordName, $0.recordChangeTag ?? "?") }))
    }

    static func populatedStore(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.apply(version1)
        try store.save([
            Record(recordType: "A", recordID: id("a1"), fields: ["x": "1", "y": "2", "z": "3"]),
            Record(recordType: "B", recordID: id("b1"), fields: ["p": 7]),
            Record(recordType: "C", recordID: id("c1"), fields: ["q": "c"]),
            Record(recordType: "D", recordID: id("d1"), fields: ["d": "dd"]),
            Record(recordType: "E", recordID: id("e1"), fields: ["e": "ee"]),
        ])
        return store
    }

    @Test("A chain of field renames, two swapped record types and a chain of record types migrate together", arguments: TestEngine.allCases)
    func chainsAndSwaps(engine: TestEngine) throws {
        let store = try Self.populatedStore(engine)
        let before = try Self.contents(store, types: ["A", "B", "C", "D", "E"])
        let token = try store.currentChangeToken()

        let migration = try store.apply(Self.version2)
        #expect(Set(migration.steps.map(\.description)).isSuperset(of: [
            "rename field A.x to y", "rename field A.y to z", "rename field A.z to w",
            "rename record type B to C", "rename record type C to B",
            "rename record type D to E", "rename record type E to F",
        ]))

        let after = try Self.contents(store, types: ["A", "B", "C", "E", "F"])
        #expect(after.lines == [
            "a1: A {w: \"3\", y: \"1\", z: \"2\"}",
            "b1: C {p: 7}",
            "c1: B {q: \"c\"}",
            "d1: E {d: \"dd\"}",
            "e1: F {e: \"ee\"}",
        ])
        #expect(after.tags == before.tags)
        #expect(try store.schema(for: "D") == nil)
        #expect(try store.schema(for: "A")?.fields.map(\.name) == ["y", "z", "w"])
        #expect(try store.schema(for: "C")?.fields.map(\.name) == ["p"])
        #expect(try store.schema(for: "B")?.fields.map(\.name) == ["q"])
        // The renamed fields and types answer queries, and the history names the new types.
        #expect(try store.records(ofType: "A", matching: FormatPredicate(format: "y == '1' AND w == '3'"), sorts: []).map(\.recordID.recordName) == ["a1"])
        #expect(try store.records(ofType: "C", matching: FormatPredicate(format: "p == 7"), sorts: []).map(\.recordID.recordName) == ["b1"])
        #expect(try store.changes(since: token).changedRecords.isEmpty)
        #expect(try store.changes().changedRecords.map { "\($0.recordID.recordName) \($0.recordType)" }.sorted() == [
            "a1 A", "b1 C", "c1 B", "d1 E", "e1 F",
        ])
        // The new version's records save under the new names.
        try store.save([Record(recordType: "F", recordID: Self.id("f2"), fields: ["e": "new"])])
        #expect(try store.count(ofType: "F", matching: FormatPredicate(format: "TRUEPREDICATE")) == 2)
    }

    @Test("A stored field or type two new ones would take, and a rename onto a type that stays, are refused", arguments: TestEngine.allCases)
    func ambiguousRenamesAreRefused(engine: TestEngine) throws {
        let store = try Self.populatedStore(engine)
        let before = try Self.contents(store, types: ["A", "B", "C", "D", "E"])
        var ambiguous = Self.version2
        // A keeps x by name while y takes it by renaming identifier; E (renaming D) while the stored E stays.
        ambiguous.entities = [
            CoreDataEntity(name: "A", attributes: [Self.text("x"), Self.text("y", renaming: "x"), Self.text("z")]),
            CoreDataEntity(name: "B", attributes: [CoreDataAttribute(name: "p", type: .integer64)]),
            CoreDataEntity(name: "C", attributes: [Self.text("q")]),
            CoreDataEntity(name: "E", attributes: [Self.text("d")], renamingIdentifier: "D"),
        ]
        do throws(RecordStoreError) {
            _ = try store.apply(ambiguous)
            Issue.record("the ambiguous version was applied")
        } catch {
            guard case .migrationRefused(let problems) = error else {
                Issue.record("unexpected error: \(error)")
                return
            }
            #expect(Set(problems.map(\.description)) == [
                "D: renamed to 'E', the name of another record type that stays",
                "A.x: both 'x' and 'y' would take its values (by renaming identifier or by name): only one may",
            ])
            #expect(Set(problems) == [
                .nameTaken(recordType: "D", field: nil, name: "E"),
                .renamedTwice(recordType: "A", field: "x", to: ["x", "y"]),
            ])
        }
        #expect(try Self.contents(store, types: ["A", "B", "C", "D", "E"]).lines == before.lines)
    }

    @Test("Renames run in an order where each new name is free: chains from their end, cycles through a name aside")
    func renameOrder() {
        func steps(_ renames: [String: String], _ inUse: Set<String>) -> [String] {
            RenameOrder.steps(renames, inUse: inUse).map { "\($0.from)>\($0.to)" }
        }
        #expect(steps(["x": "y", "y": "z", "z": "w"], ["x", "y", "z"]) == ["z>w", "y>z", "x>y"])
        #expect(steps(["a": "b", "b": "a"], ["a", "b"]) == ["a>$renaming$a", "b>a", "$renaming$a>b"])
        #expect(steps(["a": "b", "b": "c", "c": "a", "d": "e"], ["a", "b", "c", "d"]) == ["d>e", "a>$renaming$a", "c>a", "b>c", "$renaming$a>b"])
        // A name aside that is taken gets another.
        #expect(steps(["a": "b", "b": "a"], ["a", "b", "$renaming$a"]) == ["a>$renaming$a$", "b>a", "$renaming$a$>b"])
        // Unchanged names are no steps; a rename onto a name that stays comes as given.
        #expect(steps(["a": "a", "b": "c"], ["a", "b", "c"]) == ["b>c"])
    }
}

import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Core Data entity inheritance on every engine, with the staff model (`Staff.xcdatamodel`):
/// `Person` (abstract) ← `Employee` ← `Manager`, and `Person` ← `Contractor`; a `Team` whose
/// `lead` and `members` have `Person` as destination. Fetches, counts and cursors over the
/// hierarchy are compared with an oracle that knows only the evaluator and the parent map.
@Suite("Core Data entity inheritance")
struct EntityInheritanceTests {
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Staff.xcdatamodel").path
    static let parents: [String: String] = ["Employee": "Person", "Manager": "Employee", "Contractor": "Person"]
    static let entities = ["Person", "Employee", "Manager", "Contractor"]

    /// Whether a record of `type` is one of `entity`'s (the entity itself or below it).
    static func isKind(_ type: String, of entity: String) -> Bool {
        var current: String? = type
        while let name = current {
            if name == entity { return true }
            current = parents[name]
        }
        return false
    }

    /// A store with the staff model applied.
    static func store(_ engine: TestEngine) async throws -> Store {
        let store = try engine.makeStore()
        try await store.apply(try CoreDataModelReader.read(at: model))
        return store
    }

    /// `count` records of random sub-entities with random values (some missing), saved; the
    /// saved versions (with the model's defaults filled in).
    static func randomStaff(_ store: Store, count: Int, seed: UInt64) async throws -> [Record] {
        var random = SplitMix64(seed: seed)
        let names = ["Ada", "ada", "Bo", "Cy", "Dee", "Éva", "Zed"]
        let types = ["Employee", "Manager", "Contractor"]
        var records: [Record] = []
        for index in (0..<count).shuffled(using: &random) {
            let type = types[Int.random(in: 0..<types.count, using: &random)]
            var fields: [String: Value] = ["name": .string(names[Int.random(in: 0..<names.count, using: &random)])]
            if Int.random(in: 0..<6, using: &random) > 0 { fields["age"] = .int(Int64.random(in: 18...70, using: &random)) }
            if Bool.random(using: &random) { fields["score"] = .double(Double(Int.random(in: 0...20, using: &random)) / 20) }
            if type != "Contractor", Bool.random(using: &random) { fields["salary"] = .double(Double(Int.random(in: 30...90, using: &random)) * 1000) }
            if type == "Manager" { fields["level"] = .int(Int64.random(in: 1...4, using: &random)) }
            if type == "Contractor" { fields["agency"] = .string(Bool.random(using: &random) ? "Acme" : "Initech") }
            records.append(Record(recordType: type, recordID: RecordID(recordName: String(format: "r%03d", index)), fields: fields))
        }
        return try await store.save(records)
    }

    /// A predicate of the oracle's list: its format, and how the evaluator sees `entity` (an
    /// object with a `name`, or the name itself, as Core Data's `entity == …` by name).
    struct Condition: Sendable {
        var format: String
        var entityAsName = false
    }

    static let conditions: [Condition] = [
        Condition(format: "TRUEPREDICATE"),
        Condition(format: "age > 40"),
        Condition(format: "age >= 30 AND score < 0.5"),
        Condition(format: "name BEGINSWITH[c] 'a' OR age == nil"),
        Condition(format: "entity.name == 'Manager'"),
        Condition(format: "entity.name != 'Contractor' AND age < 50"),
        Condition(format: "entity == 'Employee'", entityAsName: true),
        Condition(format: "entity.name IN {'Manager', 'Contractor'} OR score > 0.9"),
        Condition(format: "name IN {'Ada', 'Bo', 'Éva'}"),
        Condition(format: "score BETWEEN {0.2, 0.8} AND NOT (entity.name == 'Employee')"),
        // Two fields compared: the residual's on every engine, tested in Swift per branch.
        Condition(format: "age > score AND entity.name != 'Manager'"),
    ]
    static let sortLists: [[Sort]] = [
        [], [Sort("age")], [Sort("name", ascending: false), Sort("age")], [Sort("score", ascending: false)],
        [Sort("name", comparison: .caseInsensitive), Sort("score")],
    ]

    /// The oracle: the records of the entity (and its sub-entities when asked) that the
    /// evaluator says match, in ``RecordOrdering``'s order, after the offset, at most the limit.
    static func expected(
        _ records: [Record], entity: String, includesSubentities: Bool, condition: Condition, sorts: [Sort], offset: Int, limit: Int
    ) throws -> [Record] {
        let predicate = try CompiledPredicate(FormatPredicate(format: condition.format))
        let matches = try records.filter { record in
            guard includesSubentities ? isKind(record.recordType, of: entity) : record.recordType == entity else { return false }
            var object = record.fields
            object["entity"] = condition.entityAsName ? .string(record.recordType) : .object(["name": .string(record.recordType)])
            return try predicate.evaluate(object)
        }
        let sorted = matches.sorted(by: RecordOrdering(sorts: sorts).precedes)
        let page = sorted.dropFirst(offset)
        return Array(limit > 0 ? page.prefix(limit) : page)
    }

    static func names(_ records: [Record]) -> [String] { records.map { "\($0.recordID.recordName):\($0.recordType)" } }

    @Test("The schema keeps each record type's parent and abstractness", arguments: TestEngine.allCases)
    func schemaKeepsTheHierarchy(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        let person = try #require(try await store.schema(for: "Person"))
        #expect(person.isAbstract)
        #expect(person.parentType == nil)
        let manager = try #require(try await store.schema(for: "Manager"))
        #expect(!manager.isAbstract)
        #expect(manager.parentType == "Employee")
        #expect(manager.field(named: "name") != nil && manager.field(named: "salary") != nil && manager.field(named: "level") != nil)
        #expect(try await store.schema(for: "Contractor")?.parentType == "Person")
    }

    @Test("Fetches and counts across the hierarchy match the oracle", arguments: TestEngine.allCases)
    func fetchesMatchTheOracle(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        let records = try await Self.randomStaff(store, count: 90, seed: 51)
        var random = SplitMix64(seed: 7)
        let pages = [(0, 0), (7, 0), (5, 3), (0, 4), (40, 30)]
        var answered = 0
        for _ in 0..<160 {
            let entity = Self.entities[Int.random(in: 0..<Self.entities.count, using: &random)]
            let includes = Int.random(in: 0..<4, using: &random) > 0
            let condition = Self.conditions[Int.random(in: 0..<Self.conditions.count, using: &random)]
            let sorts = Self.sortLists[Int.random(in: 0..<Self.sortLists.count, using: &random)]
            let (limit, offset) = pages[Int.random(in: 0..<pages.count, using: &random)]
            var request = FetchRequest(entityName: entity, predicate: try FormatPredicate(format: condition.format), sortDescriptors: sorts)
            request.includesSubentities = includes
            request.fetchLimit = limit
            request.fetchOffset = offset
            // Pages of 6: keyset pages of the whole hierarchy (a union of the types' tables on
            // the SQL engines, one pass over the zone in memory).
            request.fetchBatchSize = Int.random(in: 0..<2, using: &random) == 0 ? 0 : 6
            let expected = try Self.expected(
                records, entity: entity, includesSubentities: includes, condition: condition, sorts: sorts, offset: offset, limit: limit)
            let fetched = try await store.fetch(request).records
            let context = "\(entity) includes \(includes): \(condition.format) sorted \(sorts.map(\.key)) limit \(limit) offset \(offset) batch \(request.fetchBatchSize)"
            #expect(Self.names(fetched) == Self.names(expected), "\(context)")
            #expect(fetched.map(\.fields) == expected.map(\.fields), "\(context)")
            let counted = try await store.count(for: request)
            #expect(counted == expected.count, "\(context)")
            if !expected.isEmpty { answered += 1 }
        }
        // The draw asks questions with answers, and the parent entity holds every record.
        #expect(answered > 80)
        let everyone = try await store.fetch(FetchRequest(entityName: "Person")).records
        #expect(everyone.count == 90)
        #expect(Set(everyone.map(\.recordType)) == ["Employee", "Manager", "Contractor"])
    }

    @Test("A page of a parent entity reads only the page's rows from SQL", arguments: TestEngine.allCases.filter { $0 != .memory })
    func pageReadsOnlyItsRows(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        let records = try await Self.randomStaff(store, count: 90, seed: 17)
        let condition = Condition(format: "age >= 30")
        for (sorts, offset) in [([Sort("age"), Sort("name")], 0), ([Sort("score", ascending: false)], 4), ([], 2)] {
            var specification = QuerySpecification(
                recordType: "Person", predicate: try FormatPredicate(format: condition.format), sorts: sorts, limit: 5)
            specification.offset = offset
            let tally = QueryTally()
            specification.tally = tally
            let page = try await store.engine.records(specification)
            let expected = try Self.expected(records, entity: "Person", includesSubentities: true, condition: condition, sorts: sorts, offset: offset, limit: 5)
            #expect(Self.names(page) == Self.names(expected), "\(sorts.map(\.key)) offset \(offset)")
            // One statement over the three sub-entities' tables: the page's rows, not five of each type.
            #expect(tally.rowsRead == 5, "\(sorts.map(\.key)) offset \(offset)")
        }
    }

    @Test("Cursors page through a parent entity's records", arguments: TestEngine.allCases)
    func cursorsPageAcrossTheHierarchy(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        let records = try await Self.randomStaff(store, count: 60, seed: 3)
        let sorts = [Sort("age", ascending: false), Sort("name")]
        let condition = Condition(format: "age > 25 AND entity.name != 'Contractor'")
        let query = try RecordQuery(recordType: "Person", predicate: FormatPredicate(format: condition.format), sorts: sorts)
        // Checked as it runs: `entity.name` is the entity, not a walk through a relationship.
        try await store.check(query)
        var batch = try await store.records(matching: query, resultsLimit: 7)
        var paged = batch.records
        while let cursor = batch.cursor {
            batch = try await store.records(continuingMatchFrom: cursor, resultsLimit: 7)
            paged += batch.records
        }
        let expected = try Self.expected(records, entity: "Person", includesSubentities: true, condition: condition, sorts: sorts, offset: 0, limit: 0)
        #expect(Self.names(paged) == Self.names(expected))
    }

    @Test("Aggregates cover the hierarchy", arguments: TestEngine.allCases)
    func aggregatesCoverTheHierarchy(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        let records = try await Self.randomStaff(store, count: 40, seed: 11)
        var request = FetchRequest(entityName: "Employee", predicate: try FormatPredicate(format: "age >= 30"), resultType: .dictionaries)
        request.propertiesToFetch = [
            .aggregate(AggregateProperty(name: "total", function: .sum, key: "salary")), .aggregate(AggregateProperty(name: "n", function: .count, key: "name")),
        ]
        let rows = try await store.fetch(request).dictionaries
        let matching = records.filter { Self.isKind($0.recordType, of: "Employee") && ($0["age"]?.numericValue ?? 0) >= 30 }
        let total = matching.compactMap { $0["salary"]?.numericValue }.reduce(0, +)
        #expect(rows.count == 1)
        #expect(rows.first?["n"] == .int(Int64(matching.count)))
        #expect(rows.first?["total"]?.numericValue == total)
    }

    @Test("An abstract entity's record cannot be saved", arguments: TestEngine.allCases)
    func abstractEntityRefusesRecords(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        let id = RecordID(recordName: "p1")
        await #expect(throws: RecordStoreError.abstractRecordType("Person", record: id)) {
            _ = try await store.save([Record(recordType: "Person", recordID: id, fields: ["name": "Nobody"])])
        }
        let count = try await store.count(for: FetchRequest(entityName: "Person"))
        #expect(count == 0)
    }

    @Test("A relationship to a parent entity holds any sub-entity's record", arguments: TestEngine.allCases)
    func relationshipToParentHoldsSubEntities(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        let team: Value = .reference(Reference(recordName: "t1"))
        _ = try await store.save([
            Record(recordType: "Team", recordID: RecordID(recordName: "t1"), fields: ["title": "Core", "lead": .reference(Reference(recordName: "m1"))]),
            Record(recordType: "Manager", recordID: RecordID(recordName: "m1"), fields: ["name": "Mia", "age": 50, "team": team]),
            Record(recordType: "Employee", recordID: RecordID(recordName: "e1"), fields: ["name": "Eli", "age": 30, "team": team]),
            Record(recordType: "Contractor", recordID: RecordID(recordName: "c1"), fields: ["name": "Cat", "age": 40, "team": team]),
            Record(recordType: "Team", recordID: RecordID(recordName: "t2"), fields: ["title": "Ops"]),
            Record(recordType: "Employee", recordID: RecordID(recordName: "e2"), fields: ["name": "Ann", "age": 20]),
        ])
        let led = try await store.fetch(FetchRequest(entityName: "Team", predicate: try FormatPredicate(format: "lead.name == 'Mia'"))).records
        #expect(led.map(\.recordID.recordName) == ["t1"])
        let big = try await store.fetch(FetchRequest(entityName: "Team", predicate: try FormatPredicate(format: "members.@count == 3"))).records
        #expect(big.map(\.recordID.recordName) == ["t1"])
        let onCore = try await store.fetch(FetchRequest(entityName: "Person", predicate: try FormatPredicate(format: "team.title == 'Core'"), sortDescriptors: [Sort("name")])).records
        #expect(onCore.map(\.recordID.recordName) == ["c1", "e1", "m1"])
        // A sort through the relationship, across the sub-entities (no team sorts first).
        let byTeam = try await store.fetch(FetchRequest(entityName: "Person", sortDescriptors: [Sort("team.title"), Sort("name")])).records
        #expect(byTeam.map(\.recordID.recordName) == ["e2", "c1", "e1", "m1"])
        // Deleting the team nullifies every member's reference, whatever its sub-entity.
        try await store.delete([RecordID(recordName: "t1")])
        let withTeam = try await store.count(for: FetchRequest(entityName: "Person", predicate: try FormatPredicate(format: "team != nil")))
        #expect(withTeam == 0)
    }

    @Test("A live query on a parent entity sees its sub-entities' records", arguments: TestEngine.allCases)
    func liveQuerySeesSubEntities(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        _ = try await store.save([Record(recordType: "Employee", recordID: RecordID(recordName: "e1"), fields: ["name": "Eli", "age": 30])])
        var request = FetchRequest(entityName: "Person", predicate: try FormatPredicate(format: "age > 20 AND entity.name != 'Contractor'"))
        request.sortDescriptors = [Sort("age")]
        let probe = ObservationProbe(store.observe(request))
        let initial = try await probe.next()
        #expect(initial.records.map(\.recordID.recordName) == ["e1"])
        _ = try await store.save([Record(recordType: "Manager", recordID: RecordID(recordName: "m1"), fields: ["name": "Mia", "age": 50])])
        let arrived = try await probe.next()
        #expect(arrived.records.map(\.recordID.recordName) == ["e1", "m1"])
        #expect(arrived.records.last?.recordType == "Manager")
        _ = try await store.save([
            Record(recordType: "Contractor", recordID: RecordID(recordName: "c1"), fields: ["name": "Cat", "age": 40]),
            Record(recordType: "Employee", recordID: RecordID(recordName: "e2"), fields: ["name": "Eve", "age": 25]),
        ])
        let next = try await probe.next()
        #expect(next.records.map(\.recordID.recordName) == ["e2", "e1", "m1"])
    }

    @Test("Templates keep includeSubentities", arguments: TestEngine.allCases)
    func templatesKeepIncludeSubentities(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        _ = try await store.save([
            Record(recordType: "Employee", recordID: RecordID(recordName: "e1"), fields: ["name": "Eli", "age": 30]),
            Record(recordType: "Manager", recordID: RecordID(recordName: "m1"), fields: ["name": "Mia", "age": 50]),
            Record(recordType: "Contractor", recordID: RecordID(recordName: "c1"), fields: ["name": "Cat", "age": 40]),
        ])
        let plain = try await store.fetchRequest(template: "PlainEmployees")
        #expect(!plain.includesSubentities)
        #expect(try await store.fetch(plain).records.map(\.recordID.recordName) == ["e1"])
        let seniors = try await store.fetchRequest(template: "Seniors", substitutionVariables: ["MINIMUM": 35])
        #expect(seniors.includesSubentities)
        #expect(try await store.fetch(seniors).records.map(\.recordID.recordName).sorted() == ["c1", "m1"])
    }
}

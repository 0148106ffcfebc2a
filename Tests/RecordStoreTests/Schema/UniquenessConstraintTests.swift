import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Uniqueness constraints from a Core Data model and the merge policies that resolve a save
/// breaking one, on every engine: the same conflict under each policy gives exactly the records
/// ``MergePolicy`` describes; conflicts with a stored record, within one save, through a
/// composite constraint and by an update; nulls and other zones take no part.
@Suite("Uniqueness constraints and merge policies")
struct UniquenessConstraintTests {
    /// Person (abstract, unique email) > Member (first, last, age, nickname; unique first + last).
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Members.xcdatamodel").path

    static func id(_ name: String, zone: ZoneID = .default) -> RecordID { RecordID(recordName: name, zoneID: zone) }

    /// The problems a schema change refused with (`RecordStoreError.migrationRefused`); an issue
    /// and nil when it went through or failed otherwise.
    static func refusal(_ change: () throws(RecordStoreError) -> Void) -> [MigrationProblem]? {
        do throws(RecordStoreError) {
            try change()
            Issue.record("the schema change went through")
        } catch {
            guard case .migrationRefused(let problems) = error else {
                Issue.record("unexpected error: \(error)")
                return nil
            }
            return problems
        }
        return nil
    }

    static func member(_ name: String, _ fields: [String: Value], zone: ZoneID = .default) -> Record {
        Record(recordType: "Member", recordID: id(name, zone: zone), fields: fields)
    }

    static let ada: [String: Value] = ["email": "ada@example.com", "first": "Ada", "last": "Lovelace", "age": 36]
    static let grace: [String: Value] = ["email": "grace@example.com", "first": "Grace", "last": "Hopper", "nickname": "Amazing Grace"]

    /// A store with the model applied and members m1 (Ada) and m2 (Grace).
    static func makeStore(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.apply(try CoreDataModelReader.read(at: model))
        try store.save([member("m1", ada), member("m2", grace)])
        return store
    }

    /// Every member, by record name: its fields.
    static func members(_ store: Store, zone: ZoneID = .default) throws -> [String: [String: Value]] {
        var found: [String: [String: Value]] = [:]
        for record in try store.records(ofType: "Member", matching: FormatPredicate(format: "TRUEPREDICATE"), sorts: [], zone: zone) {
            found[record.recordID.recordName] = record.fields
        }
        return found
    }

    /// The conflicts a save throws; empty when it saves.
    static func conflicts(_ body: () throws(RecordStoreError) -> Void) -> [ConstraintConflict] {
        do throws(RecordStoreError) {
            try body()
            return []
        } catch {
            guard case .constraintConflict(let conflicts) = error else {
                Issue.record("unexpected error: \(error)")
                return []
            }
            return conflicts
        }
    }

    @Test("The model's constraints, inherited ones first, reach the record type", arguments: TestEngine.allCases)
    func constraintsInSchema(engine: TestEngine) throws {
        let store = try Self.makeStore(engine)
        let schema = try store.schema(for: "Member")
        #expect(schema?.uniquenessConstraints == [["email"], ["first", "last"]])
        #expect(schema?.description.hasSuffix("  unique (email)\n  unique (first, last)") == true)
    }

    /// A new member with Ada's email, another name, a nickname and no age.
    static let newcomer: [String: Value] = ["email": "ada@example.com", "first": "Augusta", "last": "King", "nickname": "Countess"]

    @Test("Every merge policy on the same conflict: a new record with a stored record's email", arguments: TestEngine.allCases)
    func everyPolicyOnInsert(engine: TestEngine) throws {
        let expected: [MergePolicy: [String: Value]] = [
            .mergeByPropertyObjectTrump: ["email": "ada@example.com", "first": "Augusta", "last": "King", "nickname": "Countess", "age": 36],
            .mergeByPropertyStoreTrump: ["email": "ada@example.com", "first": "Ada", "last": "Lovelace", "nickname": "Countess", "age": 36],
            .overwrite: ["email": "ada@example.com", "first": "Augusta", "last": "King", "nickname": "Countess"],
            .rollback: Self.ada,
        ]
        for policy in MergePolicy.allCases {
            let store = try Self.makeStore(engine)
            let stored = try store.record(for: Self.id("m1"))
            if policy == .error {
                let conflicts = Self.conflicts { () throws(RecordStoreError) in try store.save([Self.member("n", Self.newcomer)], mergePolicy: .error) }
                #expect(conflicts == [ConstraintConflict(recordType: "Member", constraint: ["email"], values: ["ada@example.com"], saving: Self.id("n"), existing: Self.id("m1"))])
                #expect(try Self.members(store) == ["m1": Self.ada, "m2": Self.grace])
                // The default save is `.error` too.
                let byDefault = Self.conflicts { () throws(RecordStoreError) in try store.save([Self.member("n", Self.newcomer)]) }
                #expect(byDefault.map(\.existing) == [Self.id("m1")])
                continue
            }
            let saved = try store.save([Self.member("n", Self.newcomer)], mergePolicy: policy)
            #expect(saved.map(\.recordID) == [Self.id("m1")], "\(policy)")
            #expect(saved.first?.fields == expected[policy], "\(policy)")
            #expect(try Self.members(store) == ["m1": expected[policy] ?? [:], "m2": Self.grace], "\(policy)")
            let after = try store.record(for: Self.id("m1"))
            #expect(after?.creationDate == stored?.creationDate, "\(policy)")
            if policy == .rollback {
                #expect(after?.recordChangeTag == stored?.recordChangeTag)
            } else {
                #expect(after?.recordChangeTag != stored?.recordChangeTag, "\(policy)")
                #expect(after?.recordChangeTag == saved.first?.recordChangeTag, "\(policy)")
            }
        }
    }

    @Test("Every merge policy on an update that takes a stored record's first and last name", arguments: TestEngine.allCases)
    func everyPolicyOnUpdate(engine: TestEngine) throws {
        let expected: [MergePolicy: [String: [String: Value]]] = [
            // m2's changes (first, last, age) over m1; m2 merged away.
            .mergeByPropertyObjectTrump: ["m1": ["email": "ada@example.com", "first": "Ada", "last": "Lovelace", "age": 50]],
            // m1 holds first, last and age: nothing of m2's changes fills it.
            .mergeByPropertyStoreTrump: ["m1": Self.ada],
            // m2's fields, all of them, under m1's identifier.
            .overwrite: ["m1": ["email": "grace@example.com", "first": "Ada", "last": "Lovelace", "nickname": "Amazing Grace", "age": 50]],
            // m2's changes discarded.
            .rollback: ["m1": Self.ada, "m2": Self.grace],
        ]
        for policy in MergePolicy.allCases {
            let store = try Self.makeStore(engine)
            guard var m2 = try store.record(for: Self.id("m2")) else {
                Issue.record("m2 is not stored")
                continue
            }
            m2["first"] = "Ada"
            m2["last"] = "Lovelace"
            m2["age"] = 50
            if policy == .error {
                let conflicts = Self.conflicts { () throws(RecordStoreError) in try store.save([m2], mergePolicy: .error) }
                #expect(conflicts == [ConstraintConflict(recordType: "Member", constraint: ["first", "last"], values: ["Ada", "Lovelace"], saving: Self.id("m2"), existing: Self.id("m1"))])
                #expect(try Self.members(store) == ["m1": Self.ada, "m2": Self.grace])
                continue
            }
            let saved = try store.save([m2], mergePolicy: policy)
            #expect(saved.map(\.recordID) == [Self.id(policy == .rollback ? "m2" : "m1")], "\(policy)")
            #expect(try Self.members(store) == expected[policy], "\(policy)")
        }
    }

    @Test("Two new records with one email in one save: the later merges into the earlier", arguments: TestEngine.allCases)
    func conflictWithinASave(engine: TestEngine) throws {
        let first = Self.member("n1", ["email": "new@example.com", "first": "Nora", "age": 20])
        let second = Self.member("n2", ["email": "new@example.com", "last": "Noether", "age": 30])
        let store = try Self.makeStore(engine)
        let conflicts = Self.conflicts { () throws(RecordStoreError) in try store.save([first, second]) }
        #expect(conflicts == [ConstraintConflict(recordType: "Member", constraint: ["email"], values: ["new@example.com"], saving: Self.id("n2"), existing: Self.id("n1"))])
        #expect(try Self.members(store).count == 2)

        let saved = try store.save([first, second], mergePolicy: .mergeByPropertyObjectTrump)
        #expect(saved.map(\.recordID) == [Self.id("n1"), Self.id("n1")])
        #expect(try Self.members(store)["n1"] == ["email": "new@example.com", "first": "Nora", "last": "Noether", "age": 30])
        #expect(try Self.members(store)["n2"] == nil)

        let other = try Self.makeStore(engine)
        _ = try other.save([first, second], mergePolicy: .mergeByPropertyStoreTrump)
        #expect(try Self.members(other)["n1"] == ["email": "new@example.com", "first": "Nora", "last": "Noether", "age": 20])
    }

    @Test("Empty constrained fields and other zones take no part", arguments: TestEngine.allCases)
    func nullsAndZones(engine: TestEngine) throws {
        let store = try Self.makeStore(engine)
        // No email, and no last name: neither constraint applies.
        try store.save([Self.member("a", ["first": "Ada"]), Self.member("b", ["first": "Ada"])])
        let zone = ZoneID(zoneName: "Other")
        try store.createZone(zone)
        try store.save([Self.member("m1", Self.ada, zone: zone)])
        #expect(try Self.members(store).count == 4)
        #expect(try Self.members(store, zone: zone) == ["m1": Self.ada])
        // A record's own stored version is no conflict.
        guard var m1 = try store.record(for: Self.id("m1")) else {
            Issue.record("m1 is not stored")
            return
        }
        m1["age"] = 37
        try store.save([m1])
        #expect(try Self.members(store)["m1"]?["age"] == 37)
    }

    @Test("A modify reports the conflict on the record that breaks the constraint", arguments: TestEngine.allCases)
    func modifyResults(engine: TestEngine) throws {
        let store = try Self.makeStore(engine)
        let fine = Self.member("ok", ["email": "ok@example.com"])
        let clash = Self.member("n", Self.newcomer)
        let result = try store.modify(saving: [fine, clash], deleting: [])
        let conflict = ConstraintConflict(recordType: "Member", constraint: ["email"], values: ["ada@example.com"], saving: Self.id("n"), existing: Self.id("m1"))
        guard case .failure(.constraintConflict(let conflicts))? = result.saveResults[Self.id("n")] else {
            Issue.record("n: \(String(describing: result.saveResults[Self.id("n")]))")
            return
        }
        #expect(conflicts == [conflict])
        guard case .failure(.batchRequestFailed(let other))? = result.saveResults[Self.id("ok")] else {
            Issue.record("ok: \(String(describing: result.saveResults[Self.id("ok")]))")
            return
        }
        #expect(other == Self.id("ok"))
        let merged = try store.modify(saving: [fine, clash], deleting: [], mergePolicy: .mergeByPropertyObjectTrump)
        #expect(try merged.saveResults[Self.id("n")]?.get().recordID == Self.id("m1"))
        #expect(try merged.saveResults[Self.id("ok")]?.get().recordID == Self.id("ok"))
        #expect(RecordStoreError.constraintConflict([conflict]).description
            == "The save broke a uniqueness constraint (1551 NSManagedObjectConstraintMergeError): Member 'n' has email == \"ada@example.com\", as 'm1' does (uniqueness constraint email)")
    }

    @Test("A model that adds a constraint its stored records break is refused; one they keep is applied", arguments: TestEngine.allCases)
    func migrationAddingAConstraint(engine: TestEngine) throws {
        var unconstrained = try CoreDataModelReader.read(at: Self.model)
        for index in unconstrained.entities.indices { unconstrained.entities[index].uniquenessConstraints = [] }
        let store = try engine.makeStore()
        try store.apply(unconstrained)
        #expect(try store.schema(for: "Member")?.uniquenessConstraints == [])
        try store.save([Self.member("m1", Self.ada), Self.member("m2", ["email": "ada@example.com", "first": "Augusta"])])
        let constrained = try CoreDataModelReader.read(at: Self.model)
        let problems = Self.refusal { () throws(RecordStoreError) in try store.apply(constrained) }
        #expect(problems == [.constraintBroken(recordType: "Member", constraint: ["email"])])
        #expect(problems?.map(\.description) == [
            "Member: the new uniqueness constraint (email) is broken by records of 'Member' that hold the same values",
        ])
        #expect(try store.schema(for: "Member")?.uniquenessConstraints == [])
        // Once the records keep it, the model applies and the constraint holds.
        guard var m2 = try store.record(for: Self.id("m2")) else {
            Issue.record("m2 is not stored")
            return
        }
        m2["email"] = "augusta@example.com"
        try store.save([m2])
        let migration = try store.apply(constrained)
        let constraintSteps = migration.steps.filter { step in
            if case .addedConstraint = step { true } else { false }
        }
        #expect(Set(constraintSteps) == [
            .addedConstraint(recordType: "Person", fields: ["email"]), .addedConstraint(recordType: "Member", fields: ["email"]),
            .addedConstraint(recordType: "Member", fields: ["first", "last"]),
        ])
        #expect(constraintSteps.map(\.description).contains("add the uniqueness constraint Member (first, last)"))
        // Back to no constraints: the steps say they are removed.
        let removal = try store.apply(unconstrained).steps.filter { step in
            if case .removedConstraint = step { true } else { false }
        }
        #expect(Set(removal) == [
            .removedConstraint(recordType: "Person", fields: ["email"]), .removedConstraint(recordType: "Member", fields: ["email"]),
            .removedConstraint(recordType: "Member", fields: ["first", "last"]),
        ])
        try store.apply(constrained)
        #expect(try store.schema(for: "Member")?.uniquenessConstraints == [["email"], ["first", "last"]])
        let conflicts = Self.conflicts { () throws(RecordStoreError) in try store.save([Self.member("n", Self.newcomer)]) }
        #expect(conflicts.map(\.existing) == [Self.id("m1")])
    }

    /// Writers that save one email at once, each in its own transaction (on PostgreSQL truly at
    /// once: none sees the others' uncommitted records, and the deferred unique constraint stops
    /// all but the first at their commits, which then decide again on what is stored): exactly one
    /// saves, every other gets the typed conflict naming the one that saved, never a storage error.
    @Test("Concurrent saves of one email: one saves, the others get the conflict", arguments: TestEngine.allCases)
    func concurrentSavesOfOneKey(engine: TestEngine) async throws {
        let store = try Self.makeStore(engine)
        let writers = 8
        let outcomes = await withTaskGroup(of: (String, Result<Void, RecordStoreError>).self) { group in
            for writer in 0..<writers {
                let name = "w\(writer)"
                group.addTask {
                    do throws(RecordStoreError) {
                        try await store.save([Self.member(name, ["email": "same@example.com", "first": .string(name)])])
                        return (name, .success(()))
                    } catch {
                        return (name, .failure(error))
                    }
                }
            }
            var outcomes: [String: Result<Void, RecordStoreError>] = [:]
            for await (name, outcome) in group { outcomes[name] = outcome }
            return outcomes
        }
        let saved = outcomes.filter { if case .success = $0.value { true } else { false } }.map(\.key)
        #expect(saved.count == 1)
        guard let winner = saved.first else { return }
        for (name, outcome) in outcomes where name != winner {
            guard case .failure(let error) = outcome, case .constraintConflict(let conflicts) = error else {
                Issue.record("\(name): expected a constraint conflict, got \(outcome)")
                continue
            }
            #expect(conflicts == [ConstraintConflict(
                recordType: "Member", constraint: ["email"], values: ["same@example.com"], saving: Self.id(name), existing: Self.id(winner))])
        }
        let holders = try await store.records(ofType: "Member", matching: FormatPredicate(format: "email == 'same@example.com'"))
        #expect(holders.map(\.recordID) == [Self.id(winner)])
    }

    @Test("A definition that adds a constraint its stored records break is refused, changing nothing; one they keep is defined", arguments: TestEngine.allCases)
    func definitionAddingAConstraint(engine: TestEngine) throws {
        let fields = [FieldSchema(name: "email", type: .string), FieldSchema(name: "name", type: .string)]
        let store = try engine.makeStore()
        try store.define(RecordTypeSchema(name: "Guest", fields: fields))
        let guest = { (name: String, email: String) in
            Record(recordType: "Guest", recordID: Self.id(name), fields: ["email": .string(email), "name": .string(name)])
        }
        try store.save([guest("g1", "ada@example.com"), guest("g2", "ada@example.com"), guest("g3", "grace@example.com")])
        let problems = Self.refusal { () throws(RecordStoreError) in
            try store.define(RecordTypeSchema(name: "Guest", fields: fields, uniquenessConstraints: [["email"], ["name"]]))
        }
        #expect(problems == [.constraintBroken(recordType: "Guest", constraint: ["email"])])
        #expect(try store.schema(for: "Guest")?.uniquenessConstraints == [])
        // A save that shares an email is still let through: no constraint was half defined.
        try store.save([guest("g4", "grace@example.com")])
        #expect(try store.count(ofType: "Guest", matching: FormatPredicate(format: "TRUEPREDICATE")) == 4)

        // The name constraint, which the records keep, is defined and then enforced.
        try store.define(RecordTypeSchema(name: "Guest", fields: fields, uniquenessConstraints: [["name"]]))
        #expect(try store.schema(for: "Guest")?.uniquenessConstraints == [["name"]])
        let sameName = Record(recordType: "Guest", recordID: Self.id("g5"), fields: ["email": "other@example.com", "name": "g1"])
        #expect {
            try store.save([sameName])
        } throws: { error in
            guard case RecordStoreError.constraintConflict(let conflicts) = error else { return false }
            return conflicts.count == 1
        }
    }
}

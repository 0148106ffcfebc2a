import Foundation
import PredicateLanguage

/// The uniqueness step of every engine's save (``SaveProcedure``): finds the records the plan writes whose constrained fields
/// (``RecordTypeSchema/uniquenessConstraints``) equal those of another record of their type in
/// their zone, and resolves each conflict by the save's ``MergePolicy``.
///
/// A conflict pairs a *saving* record (written by the plan) with an *existing* one: a stored
/// record the plan neither writes nor deletes, or a record written earlier in the plan (the
/// earlier of two the save writes is the existing one). A record with an empty field in a
/// constraint takes no part in it (as SQL unique indexes treat nulls); a new record gets its
/// fields' defaults first, so that a defaulted constrained field takes part.
///
/// Under ``MergePolicy/error`` the step runs last, after the schema's rules (a save that breaks
/// both reports its validation failures, as Core Data's does), and every conflict is thrown at
/// once (``RecordStoreError/constraintConflict(_:)``). Under a merging policy it runs right after
/// the plan is made, before the deletion rules and validation, and conflicts are resolved (the first
/// of each saving record, in the plan's order, then the constraints' order) and the plan is
/// checked again, until none remain: a merge may make a record that conflicts through another
/// constraint. The merged record of a stored existing record replaces the saving record's write;
/// an updated saving record that was merged away is added to the deletions (whose deletion
/// rules the next step applies). The plan's ``WritePlan/returned`` then says which record each
/// saved record landed on.
///
/// Uniqueness is per zone: a zone is a separate store, as a CloudKit zone is. The check runs
/// inside the write transaction: SQLite's writers take turns, and PostgreSQL's unique
/// constraints `(zone, fields...)`, checked at the commit, fail a writer that commits a
/// conflicting record in between (with a storage error).
///
/// ```swift
/// var plan = try await save.plan(stored: stored, existingZones: zones)
/// try await ConstraintResolution.apply(to: &plan, stored: &stored, changes: changes, catalog: save.catalog, in: &transaction)
/// ```
package enum ConstraintResolution {
    /// The other side of a conflict.
    private enum Existing {
        /// A record the plan writes, at this index of its writes.
        case written(Int)
        /// A stored record the plan leaves alone.
        case stored(Record)

        var recordID: RecordID? {
            if case .stored(let record) = self { return record.recordID }
            return nil
        }
    }

    /// One conflict found in the plan.
    private struct Found {
        var saving: Int
        var existing: Existing
        var conflict: ConstraintConflict
    }

    /// A constrained value tuple of one type, zone and constraint.
    private struct Key: Hashable {
        var recordType: String
        var zone: ZoneID
        var constraint: Int
        var values: [Value]
    }

    /// Resolves the plan's conflicts by `changes.mergePolicy`, or throws them under `.error`.
    package static func apply<Transaction: RecordWriteTransaction>(
        to plan: inout WritePlan, stored: inout [RecordID: StoredVersion], changes: RecordChangeSet, catalog: SchemaCatalog,
        in transaction: inout Transaction
    ) async throws {
        let constrained = catalog.recordTypes.filter { !$0.value.uniquenessConstraints.isEmpty }
        guard plan.writes.contains(where: { constrained[$0.record.recordType] != nil }) else { return }
        for index in plan.writes.indices where plan.writes[index].replacing == nil && !plan.writes[index].byDeletionRule {
            if let schema = constrained[plan.writes[index].record.recordType] {
                RecordValidation.applyDefaults(to: &plan.writes[index].record, schema: schema)
            }
        }
        let returned = plan.writes.filter { !$0.byDeletionRule }.map(\.record.recordID)
        var landed: [RecordID: RecordID] = [:]
        var tags = ChangeTagGenerator()
        let now = Date()
        var rounds = 0
        while true {
            let found = try await conflicts(in: plan, constrained: constrained, in: &transaction)
            guard !found.isEmpty else { break }
            rounds += 1
            guard changes.mergePolicy != .error, rounds <= returned.count + 1 else { throw RecordStoreError.constraintConflict(found.map(\.conflict)) }
            // The stored versions of the updated saving records (their changes) and of the stored existing ones.
            let updated = found.compactMap { plan.writes[$0.saving].replacing == nil ? nil : plan.writes[$0.saving].record.recordID }
            let before = updated.isEmpty ? [:] : try await transaction.storedRecords(updated)
            let existingIDs = found.compactMap(\.existing.recordID)
            let versions = existingIDs.isEmpty ? [:] : try await transaction.storedVersions(of: existingIDs)
            var touched = Set<RecordID>()
            var removed = Set<Int>()
            for conflict in found {
                let saving = plan.writes[conflict.saving]
                let savingID = saving.record.recordID
                let existingID = conflict.conflict.existing
                // One resolution per record a round: the next round sees what it made.
                guard !touched.contains(savingID), !touched.contains(existingID) else { continue }
                touched.formUnion([savingID, existingID])
                let previous = saving.replacing == nil ? nil : before[savingID]
                removed.insert(conflict.saving)
                if changes.mergePolicy == .rollback {
                    if let previous {
                        plan.kept[savingID] = previous
                    } else {
                        landed[savingID] = existingID
                        if case .stored(let record) = conflict.existing { plan.kept[existingID] = record }
                    }
                    continue
                }
                landed[savingID] = existingID
                if previous != nil { plan.deletions.append(savingID) }
                switch conflict.existing {
                case .written(let index):
                    plan.writes[index].record.fields = merged(saving.record, previous: previous, into: plan.writes[index].record, policy: changes.mergePolicy)
                    plan.writes[index].changedFields = nil
                case .stored(let record):
                    guard let version = versions[existingID] else { throw RecordStoreError.constraintConflict([conflict.conflict]) }
                    var result = record
                    result.fields = merged(saving.record, previous: previous, into: record, policy: changes.mergePolicy)
                    let write = WritePlan.Write(
                        record: SaveRules.stamped(result, stored: version, author: changes.author, now: now, tags: &tags), replacing: version)
                    stored[existingID] = version
                    plan.writes[conflict.saving] = write
                    removed.remove(conflict.saving)
                }
            }
            for index in removed.sorted(by: >) { plan.writes.remove(at: index) }
        }
        guard rounds > 0 else { return }
        plan.returned = returned.map { id in
            var current = id
            var steps = 0
            while let next = landed[current], steps <= landed.count {
                current = next
                steps += 1
            }
            return current
        }
    }

    /// The fields the existing record ends with, by the policy. A field that holds each record's
    /// own record name (a model's `id`, which `ModelContext` writes) is an identity, not a
    /// property: the existing record keeps its own.
    private static func merged(_ saving: Record, previous: Record?, into existing: Record, policy: MergePolicy) -> [String: Value] {
        var fields = mergedProperties(saving, previous: previous, into: existing, policy: policy)
        for (name, value) in saving.fields where value == .string(saving.recordID.recordName) {
            if existing.fields[name] == .string(existing.recordID.recordName) { fields[name] = existing.fields[name] }
        }
        return fields
    }

    /// The fields the existing record ends with, by the policy, identities aside.
    private static func mergedProperties(_ saving: Record, previous: Record?, into existing: Record, policy: MergePolicy) -> [String: Value] {
        switch policy {
        case .overwrite:
            return saving.fields
        case .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump:
            var fields = existing.fields
            for (name, value) in changedFields(of: saving, previous: previous) {
                if policy == .mergeByPropertyStoreTrump, let held = fields[name], !held.isNull { continue }
                fields[name] = value
            }
            return fields.filter { !$0.value.isNull }
        case .error, .rollback:
            return existing.fields
        }
    }

    /// A saving record's changes: every field of a new record; the fields of an update that
    /// differ from its stored version, a removed one as null.
    private static func changedFields(of record: Record, previous: Record?) -> [String: Value] {
        guard let previous else { return record.fields }
        var changed: [String: Value] = [:]
        for (name, value) in record.fields where previous.fields[name] != value { changed[name] = value }
        for name in previous.fields.keys where record.fields[name] == nil { changed[name] = .null }
        return changed
    }

    /// Every conflict of the plan: between its writes first, then with stored records, ordered
    /// by saving record and constraint.
    private static func conflicts<Transaction: RecordWriteTransaction>(
        in plan: WritePlan, constrained: [String: RecordTypeSchema], in transaction: inout Transaction
    ) async throws -> [Found] {
        var found: [Found] = []
        var holders: [Key: Int] = [:]
        let deleted = Set(plan.deletions)
        let written = Set(plan.writes.map(\.record.recordID))
        for (index, write) in plan.writes.enumerated() where !deleted.contains(write.record.recordID) {
            guard let schema = constrained[write.record.recordType] else { continue }
            for (position, fields) in schema.uniquenessConstraints.enumerated() {
                guard let values = UniquenessLookup.key(of: write.record, fields: fields) else { continue }
                let key = Key(recordType: schema.name, zone: write.record.recordID.zoneID, constraint: position, values: values)
                if let holder = holders[key] {
                    let conflict = ConstraintConflict(
                        recordType: schema.name, constraint: fields, values: values, saving: write.record.recordID,
                        existing: plan.writes[holder].record.recordID)
                    found.append(Found(saving: index, existing: .written(holder), conflict: conflict))
                } else {
                    holders[key] = index
                }
            }
        }
        // The stored records holding the writes' values, one lookup per type, zone and constraint.
        let lookups = Dictionary(grouping: holders.keys) { Key(recordType: $0.recordType, zone: $0.zone, constraint: $0.constraint, values: []) }
        for (group, keys) in lookups.sorted(by: { ($0.key.recordType, $0.key.zone.zoneName, $0.key.constraint) < ($1.key.recordType, $1.key.zone.zoneName, $1.key.constraint) }) {
            guard let schema = constrained[group.recordType] else { continue }
            let fields = schema.uniquenessConstraints[group.constraint]
            let lookup = UniquenessLookup(recordType: group.recordType, zone: group.zone, fields: fields, keys: keys.map(\.values))
            for record in try await transaction.records(matching: lookup) where !written.contains(record.recordID) && !deleted.contains(record.recordID) {
                guard let values = UniquenessLookup.key(of: record, fields: fields) else { continue }
                var key = group
                key.values = values
                guard let holder = holders[key] else { continue }
                let conflict = ConstraintConflict(
                    recordType: schema.name, constraint: fields, values: values, saving: plan.writes[holder].record.recordID, existing: record.recordID)
                found.append(Found(saving: holder, existing: .stored(record), conflict: conflict))
            }
        }
        return found.sorted { lhs, rhs in
            let left = constraintPosition(lhs, constrained), right = constraintPosition(rhs, constrained)
            return (lhs.saving, left, lhs.conflict.existing.recordName) < (rhs.saving, right, rhs.conflict.existing.recordName)
        }
    }

    private static func constraintPosition(_ found: Found, _ constrained: [String: RecordTypeSchema]) -> Int {
        constrained[found.conflict.recordType]?.uniquenessConstraints.firstIndex(of: found.conflict.constraint) ?? 0
    }
}

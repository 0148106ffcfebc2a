/// The validation step of every engine's save (``SaveProcedure``), once the deletion rules have
/// added their writes and before anything is written: new records get their fields' default
/// values, then every record the plan writes is checked against its type's rules
/// (``RecordValidation``), and so is every record whose inverse to-many the save changes.
/// Any broken rule fails the whole save with ``RecordStoreError/validationFailed(_:)``, listing
/// every failure: the written records' in the plan's order, then the inverse to-manys' by record.
///
/// An inverse to-many (`.toMany(inverse: g)` with a minimum, a maximum or `isRequired`) counts
/// the records of its destination, in the record's zone, whose `g` references it once the save
/// is applied. A save changes that count for the records it writes, and for the records that
/// the destination records it writes or deletes referenced before or reference after, as Core
/// Data validates the objects whose inverse relationship it maintained.
///
/// ```swift
/// try await DeletionRuleExpansion.apply(to: &plan, stored: &stored, saving: save.admitted, catalog: save.catalog, in: &transaction)
/// try await SaveValidation.apply(to: &plan, stored: stored, catalog: save.catalog, in: &transaction)
/// ```
package enum SaveValidation {
    /// An inverse to-many that states a count rule.
    private struct InverseCount {
        var recordType: String
        var relationship: RelationshipSchema
        var inverseField: String
    }

    /// Gives new records their defaults in `plan`, then throws every broken rule.
    package static func apply<Transaction: RecordWriteTransaction>(
        to plan: inout WritePlan, stored: [RecordID: StoredVersion], catalog: SchemaCatalog, in transaction: inout Transaction
    ) async throws {
        var failures: [ValidationFailure] = []
        var rules: [String: RecordTypeSchema?] = [:]
        for index in plan.writes.indices {
            let recordType = plan.writes[index].record.recordType
            if rules[recordType] == nil {
                rules[recordType] = catalog.recordTypes[recordType].flatMap { RecordValidation.hasRules($0) ? $0 : nil }
            }
            guard let schema = rules[recordType] ?? nil else { continue }
            if plan.writes[index].replacing == nil, !plan.writes[index].byDeletionRule {
                RecordValidation.applyDefaults(to: &plan.writes[index].record, schema: schema)
            }
            failures += RecordValidation.failures(of: plan.writes[index].record, schema: schema)
        }
        let counts = catalog.recordTypes.values.flatMap { schema in
            schema.relationships.compactMap { relationship -> InverseCount? in
                guard case .toMany(let inverse) = relationship.kind, RecordValidation.isConstrained(relationship) else { return nil }
                return InverseCount(recordType: schema.name, relationship: relationship, inverseField: inverse)
            }
        }.sorted { ($0.recordType, $0.relationship.name) < ($1.recordType, $1.relationship.name) }
        for count in counts {
            failures += try await inverseCountFailures(count, plan: plan, stored: stored, catalog: catalog, in: &transaction)
        }
        if !failures.isEmpty { throw RecordStoreError.validationFailed(failures) }
    }

    /// The records whose inverse to-many `count` the plan changes and leaves outside its bounds.
    private static func inverseCountFailures<Transaction: RecordWriteTransaction>(
        _ count: InverseCount, plan: WritePlan, stored: [RecordID: StoredVersion], catalog: SchemaCatalog, in transaction: inout Transaction
    ) async throws -> [ValidationFailure] {
        let destination = count.relationship.destination
        let field = count.inverseField
        let deleted = Set(plan.deletions)
        var written: [RecordID: Record] = [:]
        for write in plan.writes where !deleted.contains(write.record.recordID) { written[write.record.recordID] = write.record }

        // The records whose count may change: those of the type written, and those the written
        // or deleted destination records reference, before or after.
        var candidates = Set(written.values.filter { $0.recordType == count.recordType }.map(\.recordID))
        let referencing = written.values.filter { $0.recordType == destination }
        for record in referencing { candidates.formUnion(sameZoneReferences(of: record, field: field)) }
        let replaced = plan.writes.compactMap { write in write.replacing?.recordType == destination ? write.record.recordID : nil }
            + plan.deletions.filter { stored[$0]?.recordType == destination }
        if !replaced.isEmpty {
            for record in try await transaction.storedRecords(replaced).values {
                candidates.formUnion(sameZoneReferences(of: record, field: field))
            }
        }
        candidates.subtract(deleted)
        guard !candidates.isEmpty else { return [] }

        // Of the candidates, those of the type once the save is applied.
        let unknown = candidates.filter { written[$0] == nil }
        let storedTypes = unknown.isEmpty ? [:] : try await transaction.storedVersions(of: unknown.sorted { $0.recordName < $1.recordName })
        let targets = candidates.filter { id in (written[id]?.recordType ?? storedTypes[id]?.recordType) == count.recordType }
        guard !targets.isEmpty else { return [] }

        // Who references each target once the save is applied: the stored records the save
        // leaves alone, and the destination records it writes.
        var references: [RecordID: Set<RecordID>] = [:]
        let isList = catalog.recordTypes[destination]?.field(named: field)?.type.isList ?? false
        for (zone, zoneTargets) in Dictionary(grouping: targets, by: \.zoneID) {
            let lookup = ReferenceLookup(recordType: destination, zone: zone, field: field, isList: isList, targets: zoneTargets.sorted { $0.recordName < $1.recordName })
            for record in try await transaction.records(matching: lookup)
            where written[record.recordID] == nil && !deleted.contains(record.recordID) {
                for target in sameZoneReferences(of: record, field: field) { references[target, default: []].insert(record.recordID) }
            }
        }
        for record in referencing {
            for target in sameZoneReferences(of: record, field: field) { references[target, default: []].insert(record.recordID) }
        }
        return targets.sorted { ($0.zoneID.zoneName, $0.recordName) < ($1.zoneID.zoneName, $1.recordName) }.compactMap { target in
            guard let (code, reason) = RecordValidation.brokenCount(references[target]?.count ?? 0, count.relationship) else { return nil }
            return ValidationFailure(recordID: target, recordType: count.recordType, key: count.relationship.name, code: code, reason: reason)
        }
    }

    /// The records a record's reference field references in its own zone (an inverse reaches
    /// only those).
    private static func sameZoneReferences(of record: Record, field: String) -> [RecordID] {
        ReferenceLookup.referencedIDs(record.fields[field]).filter { $0.zoneID == record.recordID.zoneID }
    }
}

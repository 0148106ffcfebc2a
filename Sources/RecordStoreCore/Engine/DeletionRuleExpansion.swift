import Foundation

/// The deletion rules of a save (``DeletionRule``), applied to its ``WritePlan`` before anything
/// is written: reads what the deleted records' relationships reach through the save's
/// ``RecordWriteTransaction``, decides in Swift, and adds the cascaded deletions and the
/// nullifying writes to the plan (or refuses the save when a deny rule blocks it).
///
/// For each record deleted (its type from the stored version) and each relationship of its type:
/// - an inverse to-many (`.toMany(inverse: g)`) reaches the destination's records in the same
///   zone whose `g` references it: cascade deletes them (their own rules apply, to a fixed
///   point); deny refuses the save naming one of them (the smallest record name) unless it is
///   deleted by the same save; nullify rewrites each with `g` set to nil (a `REFERENCE`) or
///   without the deleted record (a `LIST<REFERENCE>`), with a new change tag and modification
///   date; no action leaves the references dangling (walks read them as nil);
/// - a to-one or a reference list (stored on the deleted record) reaches the records it
///   references, of the destination type: cascade deletes those that exist; deny refuses while
///   any exists and is not deleted by the same save; nullify and no action do nothing (nothing
///   stored points back).
///
/// And CloudKit's per-value `DELETE_SELF` (``DeleteSelfReferences``): the records whose reserved
/// field names a reference field that references a deleted record are deleted too, as a cascade.
///
/// A record the caller saves in the same save is judged by the caller's version and is never
/// rewritten or deleted by a rule: the caller's version wins. When it still references a deleted
/// record, a cascade or nullify leaves that reference dangling (as no action would), and a deny
/// refuses the save; when it no longer does, no rule reaches it.
///
/// ```swift
/// var plan = try save.plan(stored: stored, existingZones: zones)
/// var versions = stored
/// try await DeletionRuleExpansion.apply(to: &plan, stored: &versions, saving: save.admitted, catalog: save.catalog, in: &transaction)
/// ```
@_spi(StorageEngine) public enum DeletionRuleExpansion {
    /// A deny rule that reached a record.
    struct Denial {
        var deleted: RecordID
        var relationship: String
        var recordType: String
        var blocker: RecordID
    }

    /// Adds to `plan` what the deletion rules of its deletions do, and to `stored` the stored
    /// versions of the records they delete or rewrite (for the commit's description). Throws
    /// ``RecordStoreError/deleteDenied(_:relationship:recordType:blockedBy:)`` when a deny rule
    /// blocks a deletion. A rewritten record names `author` (the deletion's) as its last modifier.
    @_spi(StorageEngine) public static func apply<Transaction: RecordWriteTransaction>(
        to plan: inout WritePlan, stored: inout [RecordID: StoredVersion], saving: [Record], catalog: SchemaCatalog,
        author: String? = nil, now: Date = Date(), in transaction: inout Transaction
    ) async throws {
        let deleteSelfTypes = DeleteSelfReferences.referencingFields(in: catalog)
        guard !plan.deletions.isEmpty, !deleteSelfTypes.isEmpty || catalog.recordTypes.values.contains(where: { !$0.relationships.isEmpty }) else { return }
        var saved: [RecordID: Record] = [:]
        for record in saving { saved[record.recordID] = record }
        var types: [RecordID: String] = [:]
        var deleted = Set<RecordID>()
        var frontier: [RecordID] = []
        for id in plan.deletions where deleted.insert(id).inserted {
            guard let version = stored[id] else { continue }
            types[id] = version.recordType
            frontier.append(id)
        }
        var cascaded: [RecordID] = []
        var denials: [Denial] = []
        // The records to rewrite, as stored, and the records each must stop referencing, by field.
        var nullified: [RecordID: Record] = [:]
        var removals: [RecordID: [String: Set<RecordID>]] = [:]

        while !frontier.isEmpty {
            var next: [RecordID] = []
            func cascade(_ id: RecordID, type: String) {
                guard saved[id] == nil, deleted.insert(id).inserted else { return }
                types[id] = type
                cascaded.append(id)
                next.append(id)
            }

            // To-ones and reference lists: what the deleted records reference.
            let storing = frontier.filter { id in
                relationships(of: types[id], in: catalog).contains { $0.storedField != nil && ($0.deletionRule == .cascade || $0.deletionRule == .deny) }
            }
            if !storing.isEmpty {
                let records = try await transaction.storedRecords(storing)
                var reached: [(from: RecordID, relationship: RelationshipSchema, target: RecordID)] = []
                for id in storing {
                    guard let record = records[id] else { continue }
                    for relationship in relationships(of: types[id], in: catalog)
                    where relationship.storedField != nil && (relationship.deletionRule == .cascade || relationship.deletionRule == .deny) {
                        var seen = Set<RecordID>()
                        for target in ReferenceLookup.referencedIDs(record.fields[relationship.name]) where seen.insert(target).inserted {
                            reached.append((id, relationship, target))
                        }
                    }
                }
                let targets = Array(Set(reached.map(\.target)).filter { saved[$0] == nil })
                let versions = targets.isEmpty ? [:] : try await transaction.storedVersions(of: targets)
                for (from, relationship, target) in reached {
                    let targetType = saved[target]?.recordType ?? versions[target]?.recordType
                    // A destination with subtypes holds the records of any of them.
                    guard let targetType, catalog.isType(targetType, kindOf: relationship.destination) else { continue }
                    if relationship.deletionRule == .cascade {
                        cascade(target, type: targetType)
                    } else {
                        denials.append(Denial(deleted: from, relationship: relationship.name, recordType: types[from] ?? "", blocker: target))
                    }
                }
            }

            // Inverse to-manys: the records that reference the deleted records, type by type and zone by zone.
            var groups: [String: [ZoneID: [RecordID]]] = [:]
            for id in frontier {
                guard let type = types[id] else { continue }
                groups[type, default: [:]][id.zoneID, default: []].append(id)
            }
            for (type, zones) in groups.sorted(by: { $0.key < $1.key }) {
                for relationship in relationships(of: type, in: catalog) where relationship.deletionRule != .noAction {
                    guard case .toMany(let inverse) = relationship.kind,
                          let fieldType = catalog.recordTypes[relationship.destination]?.field(named: inverse)?.type else { continue }
                    // The inverse is a field of the destination and of each type below it.
                    let holders = catalog.concreteTypes(of: relationship.destination, includingSubtypes: true)
                    for (zone, ids) in zones.sorted(by: { $0.key.zoneName < $1.key.zoneName }) {
                        for holder in holders {
                            let lookup = ReferenceLookup(
                                recordType: holder, zone: zone, field: inverse, isList: fieldType.isList, targets: ids)
                            let targets = Set(ids)
                            // Stored records the caller does not rewrite, then the caller's versions.
                            var reached = try await transaction.records(matching: lookup).filter { saved[$0.recordID] == nil }
                            reached += lookup.filter(saved.values)
                            for record in reached {
                                let references = ReferenceLookup.referencedIDs(record.fields[inverse]).filter { targets.contains($0) }
                                guard let first = references.first else { continue }
                                switch relationship.deletionRule {
                                case .cascade:
                                    cascade(record.recordID, type: record.recordType)
                                case .deny:
                                    denials.append(Denial(deleted: first, relationship: relationship.name, recordType: type, blocker: record.recordID))
                                case .nullify:
                                    guard saved[record.recordID] == nil else { continue }
                                    nullified[record.recordID] = record
                                    removals[record.recordID, default: [:]][inverse, default: []].formUnion(references)
                                case .noAction:
                                    continue
                                }
                            }
                        }
                    }
                }
            }
            // CloudKit's DELETE_SELF: the records whose flagged reference fields reference the deleted records.
            if !deleteSelfTypes.isEmpty {
                for record in try await deleteSelfReferrers(of: frontier, types: deleteSelfTypes, saved: saved, in: &transaction) {
                    cascade(record.recordID, type: record.recordType)
                }
            }
            frontier = next
        }

        let blocking = denials.filter { !deleted.contains($0.blocker) }
        if let denial = blocking.min(by: precedes) {
            throw RecordStoreError.deleteDenied(denial.deleted, relationship: denial.relationship, recordType: denial.recordType, blockedBy: denial.blocker)
        }

        let rewritten = nullified.keys.filter { !deleted.contains($0) }.sorted { precedes($0, $1) }
        let toRead = cascaded + rewritten
        let versions = toRead.isEmpty ? [:] : try await transaction.storedVersions(of: toRead)
        for id in toRead where stored[id] == nil { stored[id] = versions[id] }
        plan.deletions += cascaded
        var tags = ChangeTagGenerator()
        for id in rewritten {
            guard var record = nullified[id], let version = versions[id] else { continue }
            for (field, removed) in removals[id] ?? [:] {
                switch record.fields[field] {
                case .list(let members)?:
                    record.fields[field] = .list(members.filter { member in
                        ReferenceLookup.referencedIDs(member).first.map { !removed.contains($0) } ?? true
                    })
                default:
                    record.fields[field] = nil
                }
            }
            plan.writes.append(WritePlan.Write(record: SaveRules.stamped(record, stored: version, author: author, now: now, tags: &tags), replacing: version, byDeletionRule: true))
        }
    }

    /// The records (stored, and not written by the save) that reference one of `deleted` through a
    /// field their ``DeleteSelfReferences`` field names: for each type that may hold such
    /// references, each of its reference fields looked up zone by zone (``ReferenceLookup``, which
    /// the field's index serves), then filtered by the flag.
    private static func deleteSelfReferrers<Transaction: RecordWriteTransaction>(
        of deleted: [RecordID], types: [(recordType: String, fields: [FieldSchema])], saved: [RecordID: Record], in transaction: inout Transaction
    ) async throws -> [Record] {
        var zones: [ZoneID: [RecordID]] = [:]
        for id in deleted { zones[id.zoneID, default: []].append(id) }
        var found: [Record] = []
        for (recordType, fields) in types {
            for field in fields {
                for (zone, ids) in zones.sorted(by: { $0.key.zoneName < $1.key.zoneName }) {
                    let lookup = ReferenceLookup(recordType: recordType, zone: zone, field: field.name, isList: field.type.isList, targets: ids)
                    let targets = Set(ids)
                    for record in try await transaction.records(matching: lookup) where saved[record.recordID] == nil {
                        guard DeleteSelfReferences.fields(of: record).contains(field.name),
                              ReferenceLookup.referencedIDs(record.fields[field.name]).contains(where: targets.contains) else { continue }
                        found.append(record)
                    }
                }
            }
        }
        return found
    }

    /// The relationships of a record type (none for an unknown type).
    private static func relationships(of type: String?, in catalog: SchemaCatalog) -> [RelationshipSchema] {
        type.flatMap { catalog.recordTypes[$0]?.relationships } ?? []
    }

    /// The order in which denials are reported: the smallest blocker's record name (by bytes),
    /// then zone, then the deleted record and the relationship.
    private static func precedes(_ lhs: Denial, _ rhs: Denial) -> Bool {
        if lhs.blocker != rhs.blocker { return precedes(lhs.blocker, rhs.blocker) }
        if lhs.deleted != rhs.deleted { return precedes(lhs.deleted, rhs.deleted) }
        return lhs.relationship < rhs.relationship
    }

    /// Record identifiers by name's bytes, then zone name's bytes.
    private static func precedes(_ lhs: RecordID, _ rhs: RecordID) -> Bool {
        switch SortComparison.compareBytes(lhs.recordName, rhs.recordName) {
        case .orderedAscending: true
        case .orderedDescending: false
        case .orderedSame: SortComparison.compareBytes(lhs.zoneID.zoneName, rhs.zoneID.zoneName) == .orderedAscending
        }
    }
}

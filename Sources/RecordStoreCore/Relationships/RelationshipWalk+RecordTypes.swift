import PredicateLanguage

extension RelationshipWalk {
    /// The record types whose records a walk can reach from a record type: the destinations of
    /// the relationships it walks, at every depth. A reference field walked without a declared
    /// relationship names no destination, so it can reach a record of any type: then the answer
    /// is ``ReachedRecordTypes/everyType``.
    ///
    /// A live query whose predicate walks relationships changes when one of these changes (a
    /// department renamed changes `department.name == "Sales"`), so it listens to them too.
    ///
    /// ```swift
    /// // Employee: department.manager.name == "Ada"
    /// walk.reachedRecordTypes(from: "Employee", catalog: catalog)   // .types(["Department", "Employee"])
    /// ```
    @_spi(StorageEngine) public func reachedRecordTypes(from recordType: String, catalog: SchemaCatalog) -> ReachedRecordTypes {
        let relationships = catalog.walkableRelationships
        var reached = Set<String>()
        var frontier: [(type: String, step: Step)] = [(recordType, root)]
        while let (type, step) = frontier.popLast() {
            for (name, child) in step.children {
                guard let relationship = relationships[type]?[name] else { continue }
                guard !relationship.destination.isEmpty else { return .everyType }
                if reached.insert(relationship.destination).inserted || !child.children.isEmpty {
                    frontier.append((relationship.destination, child))
                }
            }
        }
        return .types(reached)
    }
}

/// The record types a ``RelationshipWalk`` can reach.
@_spi(StorageEngine) public enum ReachedRecordTypes: Sendable, Hashable {
    /// Records of these types only.
    case types(Set<String>)
    /// Records of any type (the walk follows a reference that names no destination).
    case everyType

    /// Whether a commit changed a record of these types in a zone.
    @_spi(StorageEngine) public func areTouched(by changes: CommittedChanges, zone: ZoneID) -> Bool {
        switch self {
        case .types(let types):
            return types.contains { changes.touches(recordType: $0, zone: zone) }
        case .everyType:
            return changes.unlisted.contains { $0.includes(zone) } || changes.entries.contains { $0.recordID.zoneID == zone }
        }
    }
}

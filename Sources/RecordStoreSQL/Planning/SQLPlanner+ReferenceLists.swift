import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

extension SQLPlanner {
    /// A reference list (`LIST<REFERENCE>`, a many-to-many) walked through its list table, whose
    /// `(field, value, record)` index holds each member's stored reference:
    ///
    /// - `ANY tags.name == "x"` (and `ALL`): the records with a member among the destination's
    ///   records of the zone that pass (for `ALL`: none among those that fail);
    /// - `tags.@count` compared with a number: a correlated count of the members that exist in
    ///   the zone (a member listed twice counts twice, as the evaluator reads the list).
    ///
    /// `tags CONTAINS %@` and `%@ IN tags` compare the list's references themselves (missing
    /// members included), which ``listCondition(_:)`` plans. Nil when SQL does not read the list
    /// (a list that is not queryable has no members in its table); the query is then walked in Swift.
    func referenceListCondition(
        _ comparison: ComparisonPredicate, field: String, destination: RecordTypeSchema, rest: String, planning: RelationshipPlanning
    ) throws(RecordStoreError) -> SQLCondition {
        guard let list = schema?.field(named: field), list.type == .list(.reference), list.isQueryable,
              case .constant(let constant) = comparison.right else { return .residualOnly }
        let members = dialect.listMembers(recordType: recordType, field: field)
        let fieldTest = members.sharedByFields ? "l.field = ? AND " : ""
        let fieldArguments: [SQLValue] = members.sharedByFields ? [.text(field)] : []
        if rest == "@count" {
            guard comparison.modifier == .direct, comparison.options.isEmpty, let symbol = Self.symbol(comparison.operator),
                  let argument = Self.countArgument(constant) else { return .residualOnly }
            let prefix = referencePrefix(planning)
            let length = prefix.unicodeScalars.count
            let table = dialect.quote(TableLayout.recordTable(destination.name))
            let member = { (name: String) in "\(self.memberAlias).\(self.dialect.quote(name))" }
            return .exact(
                "(SELECT count(*) FROM \(members.table) AS l JOIN \(table) AS \(memberAlias) ON \(member(TableLayout.zoneColumn)) = "
                    + "\(column(TableLayout.zoneColumn)) AND \(member(TableLayout.recordNameColumn)) = substr(l.value, \(length + 1)) "
                    + "WHERE l.record = \(row) AND \(fieldTest)substr(l.value, 1, \(length)) = ?) \(symbol) ?",
                fieldArguments + [.text(prefix), argument])
        }
        guard comparison.modifier != .direct else { return .residualOnly }
        guard let test = try memberTest(comparison, destination: destination, rest: rest, planning: planning) else { return .residualOnly }
        let passing = "(SELECT l.record FROM \(members.table) AS l WHERE \(fieldTest)l.value IN "
            + "(SELECT ? || t.\(dialect.quote(TableLayout.recordNameColumn)) FROM \(dialect.quote(TableLayout.recordTable(destination.name))) AS t "
            + "WHERE t.\(dialect.quote(TableLayout.zoneColumn)) = ? AND "
        let arguments = fieldArguments + [.text(referencePrefix(planning)), .text(TableLayout.zoneKey(planning.zone))] + test.arguments
        if comparison.modifier == .all {
            return .exact("\(row) NOT IN \(passing)NOT (\(test.sql))))", arguments)
        }
        return .exact("\(row) IN \(passing)\(test.sql)))", arguments)
    }

    /// An inverse to-many whose inverse is a reference list on the destination (Employee's
    /// `projects`, listed in each Project's `members`), through the list table:
    ///
    /// - `ANY projects.title == "x"` (and `ALL`): the records whose reference is listed by a
    ///   destination record of the zone that passes (for `ALL`: by none that fails);
    /// - `projects.@count` compared with a number: a correlated count of the list rows of the
    ///   zone's destination records that reference this record (a record listed twice by one
    ///   project counts twice, as the evaluator reads the lists).
    func listedInverseCondition(
        _ comparison: ComparisonPredicate, destination: RecordTypeSchema, inverse: String, rest: String, planning: RelationshipPlanning
    ) throws(RecordStoreError) -> SQLCondition {
        guard let list = destination.field(named: inverse), list.type == .list(.reference), list.isQueryable,
              case .constant(let constant) = comparison.right else { return .residualOnly }
        let members = dialect.listMembers(recordType: destination.name, field: inverse)
        let fieldTest = members.sharedByFields ? "l.field = ? AND " : ""
        let fieldArguments: [SQLValue] = members.sharedByFields ? [.text(inverse)] : []
        let table = dialect.quote(TableLayout.recordTable(destination.name))
        let ownReference = "? || \(column(TableLayout.recordNameColumn))"
        if rest == "@count" {
            guard comparison.modifier == .direct, comparison.options.isEmpty, let symbol = Self.symbol(comparison.operator),
                  let argument = Self.countArgument(constant) else { return .residualOnly }
            let member = { (name: String) in "\(self.memberAlias).\(self.dialect.quote(name))" }
            return .exact(
                "(SELECT count(*) FROM \(members.table) AS l JOIN \(table) AS \(memberAlias) ON \(memberAlias).\(dialect.rowIdentifier) = l.record "
                    + "WHERE \(fieldTest)l.value = \(ownReference) AND \(member(TableLayout.zoneColumn)) = \(column(TableLayout.zoneColumn))) \(symbol) ?",
                fieldArguments + [.text(referencePrefix(planning)), argument])
        }
        guard comparison.modifier != .direct else { return .residualOnly }
        guard let test = try memberTest(comparison, destination: destination, rest: rest, planning: planning) else { return .residualOnly }
        let listing = "(SELECT l.value FROM \(members.table) AS l WHERE \(fieldTest)l.record IN (SELECT t.\(dialect.rowIdentifier) FROM \(table) AS t "
            + "WHERE t.\(dialect.quote(TableLayout.zoneColumn)) = ? AND "
        let arguments = [SQLValue.text(referencePrefix(planning))] + fieldArguments + [.text(TableLayout.zoneKey(planning.zone))] + test.arguments
        if comparison.modifier == .all {
            return .exact("\(ownReference) NOT IN \(listing)NOT (\(test.sql))))", arguments)
        }
        return .exact("\(ownReference) IN \(listing)\(test.sql)))", arguments)
    }

    /// `employees CONTAINS %@` or `%@ IN employees` with a reference, over an inverse to-many
    /// (stored in a reference or a reference list on the destination): whether the referenced
    /// record is a member, sought by its record name through the destination's unique index. A
    /// reference to another zone names no member. Nil when the comparison is no such test.
    func inverseMembershipCondition(_ comparison: ComparisonPredicate, planning: RelationshipPlanning) -> SQLCondition? {
        let name: String
        let value: Value
        switch (comparison.left, comparison.operator, comparison.right) {
        case (.keyPath(let path), .contains, .constant(let constant)): (name, value) = (path, constant)
        case (.constant(let constant), .in, .keyPath(let path)): (name, value) = (path, constant)
        default: return nil
        }
        guard let relationship = schema?.relationship(named: name), case .toMany(let inverse) = relationship.kind else { return nil }
        guard comparison.modifier == .direct, comparison.options.isEmpty, case .reference(let reference) = value,
              let destination = planning.destination(relationship.destination),
              let inverseType = destination.field(named: inverse)?.type else { return .residualOnly }
        guard reference.zoneName == planning.zone.zoneName else { return constant(false) }
        let table = dialect.quote(TableLayout.recordTable(destination.name))
        let member = { (name: String) in "\(self.memberAlias).\(self.dialect.quote(name))" }
        let found = "FROM \(table) AS \(memberAlias) WHERE \(member(TableLayout.zoneColumn)) = \(column(TableLayout.zoneColumn)) "
            + "AND \(member(TableLayout.recordNameColumn)) = ?"
        let ownReference = "? || \(column(TableLayout.recordNameColumn))"
        switch inverseType {
        case .reference:
            return .exact("EXISTS (SELECT 1 \(found) AND \(member(inverse)) = \(ownReference))",
                          [.text(reference.recordName), .text(referencePrefix(planning))])
        case .list(.reference):
            guard destination.field(named: inverse)?.isQueryable == true else { return .residualOnly }
            let members = dialect.listMembers(recordType: destination.name, field: inverse)
            let fieldTest = members.sharedByFields ? "l.field = ? AND " : ""
            let fieldArguments: [SQLValue] = members.sharedByFields ? [.text(inverse)] : []
            return .exact(
                "EXISTS (SELECT 1 \(found) AND EXISTS (SELECT 1 FROM \(members.table) AS l WHERE l.record = \(memberAlias).\(dialect.rowIdentifier) "
                    + "AND \(fieldTest)l.value = \(ownReference)))",
                [.text(reference.recordName)] + fieldArguments + [.text(referencePrefix(planning))])
        default:
            return .residualOnly
        }
    }

    /// The test a member of the destination passes, `rest` compared as the comparison asks,
    /// planned for the destination's rows aliased `t`; nil when SQL does not decide it exactly.
    private func memberTest(
        _ comparison: ComparisonPredicate, destination: RecordTypeSchema, rest: String, planning: RelationshipPlanning
    ) throws(RecordStoreError) -> (sql: String, arguments: [SQLValue])? {
        var inner = comparison
        inner.left = .keyPath(rest)
        inner.modifier = .direct
        let condition = try destinationPlanner(destination, planning: planning).condition(.comparison(inner))
        guard condition.isExact, let sql = condition.sql else { return nil }
        return (sql, condition.arguments)
    }

    /// A count's constant as bound: an integer or a finite double; nil for anything else.
    static func countArgument(_ constant: Value) -> SQLValue? {
        switch constant {
        case .int(let number): .integer(number)
        case .double(let number) where number.isFinite: .real(number)
        default: nil
        }
    }
}

import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// What a planner needs to plan key paths through relationships: the whole catalog (the
/// destinations' schemas) and the zone the query reads (relationships stay within a zone).
@_spi(StorageEngine) public struct RelationshipPlanning: Sendable {
    /// The catalog the destinations' schemas are read from.
    @_spi(StorageEngine) public var catalog: SchemaCatalog
    /// The zone the query reads, and its relationships' destinations with it.
    @_spi(StorageEngine) public var zone: ZoneID

    /// Relationship planning over a catalog, within a zone.
    @_spi(StorageEngine) public init(catalog: SchemaCatalog, zone: ZoneID) {
        self.catalog = catalog
        self.zone = zone
    }

    /// The schema of a relationship's destination whose records SQL reads in its table: nil for
    /// an unknown type, and for a type with subtypes or an abstract one (whose records are in
    /// the tables of the types below it), which the store walks in Swift.
    ///
    /// ```swift
    /// planning.destination("Department")?.name   // "Department"
    /// ```
    @_spi(StorageEngine) public func destination(_ name: String) -> RecordTypeSchema? {
        guard let schema = catalog.recordTypes[name], !schema.isAbstract, !catalog.hasSubtypes(name) else { return nil }
        return schema
    }
}

extension SQLPlanner {
    /// Key paths through relationships as SQL, each an uncorrelated subquery that the reference
    /// field's index serves (a reference column holds `len:zone` and the record name, see
    /// ``StoredValueEncoding/encodeReference(_:)``):
    ///
    /// - a to-one with a declared destination, at any depth: `department.name == "Sales"` is the
    ///   rows whose `t.department IN (SELECT '12:_defaultZone' || t."$recordName" FROM "Department"
    ///   AS t WHERE t."$zone" = '' AND <name == "Sales">)`,
    ///   and when the comparison holds for nil (`department.name != "Sales"`), the records whose
    ///   reference is not among those for which it fails;
    /// - `ANY`/`ALL` (and `NONE`, a negated `ANY`) over an inverse to-many stored in a reference:
    ///   `t."$recordName" IN (SELECT substr(t.department, 16) FROM "Employee" AS t WHERE … AND <test>)`;
    /// - `@count` of such a to-many compared with a number: a correlated count of the inverse
    ///   references, one seek of their index per record.
    ///
    /// Nil when the comparison walks no relationship; ``SQLCondition/residualOnly`` when it walks
    /// one in another way (the store then walks it in Swift, see `RelationshipQuery`), so that a
    /// walk never reads as a field the type does not have.
    @_spi(StorageEngine) public func relationshipCondition(_ comparison: ComparisonPredicate) throws(RecordStoreError) -> SQLCondition? {
        guard let planning = relationshipPlanning, mayWalk(comparison) else { return nil }
        var analyzer = RelationshipWalkAnalyzer(catalog: planning.catalog, recordType: recordType)
        guard (try? analyzer.rewrite(.comparison(comparison))) != nil, analyzer.relationshipUses > 0 else { return nil }
        if let membership = inverseMembershipCondition(comparison, planning: planning) { return membership }
        if case .member(.subquery(let collection, let variable, let predicate), "@count") = comparison.left {
            return try subqueryCountCondition(comparison, collection: collection, variable: variable, predicate: predicate, planning: planning)
        }
        guard case .keyPath(let path) = comparison.left, case .constant(let constant) = comparison.right else { return .residualOnly }
        let components = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard components.count == 2, let relationship = schema?.relationship(named: components[0]),
              let destination = planning.destination(relationship.destination) else { return .residualOnly }
        let rest = components[1]
        switch relationship.kind {
        case .toOne:
            return try toOneCondition(comparison, field: relationship.name, destination: destination, rest: rest, planning: planning)
        case .toMany(let inverse):
            if destination.field(named: inverse)?.type == .list(.reference) {
                return try listedInverseCondition(comparison, destination: destination, inverse: inverse, rest: rest, planning: planning)
            }
            guard destination.field(named: inverse)?.type == .reference else { return .residualOnly }
            if rest == "@count" {
                guard comparison.modifier == .direct, comparison.options.isEmpty else { return .residualOnly }
                return countCondition(comparison.operator, constant, destination: destination, inverse: inverse, planning: planning)
            }
            if let aggregate = MemberAggregate(path: rest) {
                return aggregateCondition(comparison, aggregate, destination: destination, inverse: inverse, planning: planning)
            }
            guard comparison.modifier != .direct else { return .residualOnly }
            return try anyOrAllCondition(comparison, destination: destination, inverse: inverse, rest: rest, planning: planning)
        case .referenceList:
            return try referenceListCondition(comparison, field: relationship.name, destination: destination, rest: rest, planning: planning)
        }
    }

    /// Whether a comparison may walk a relationship: a dotted path, `SUBQUERY` or member, or the
    /// name of an inverse to-many; the cheap test before the analysis.
    private func mayWalk(_ comparison: ComparisonPredicate) -> Bool {
        if RelationshipQuery.mayWalk(.comparison(comparison)) { return true }
        for side in [comparison.left, comparison.right] {
            if case .keyPath(let key) = side, schema?.relationship(named: key) != nil { return true }
        }
        return false
    }

    /// A planner for a relationship's destination, reading the same zone, whose rows are `alias`
    /// (`t` in an uncorrelated subquery of their own, another in a correlated one).
    func destinationPlanner(_ destination: RecordTypeSchema, planning: RelationshipPlanning, alias: String = "t") -> SQLPlanner {
        var planner = SQLPlanner(dialect: dialect, schema: destination, recordType: destination.name)
        planner.relationshipPlanning = planning
        planner.alias = alias
        return planner
    }

    /// A column of the table an uncorrelated subquery reads as `t` (whatever this planner's alias).
    private func subqueryColumn(_ name: String) -> String { "t.\(dialect.quote(name))" }

    /// The stored reference of a record of the zone without its record name: `12:_defaultZone`.
    func referencePrefix(_ planning: RelationshipPlanning) -> String {
        StoredValueEncoding.encodeReference(Reference(recordName: "", zoneName: planning.zone.zoneName))
    }

    /// The answer of a comparison whose left side reads `value`.
    func answer(_ comparison: ComparisonPredicate, for value: Value) -> Bool? {
        var probe = comparison
        probe.left = .keyPath("value")
        guard let compiled = try? CompiledPredicate(.comparison(probe)) else { return nil }
        return try? compiled.evaluate(["value": value])
    }

    private func toOneCondition(
        _ comparison: ComparisonPredicate, field: String, destination: RecordTypeSchema, rest: String, planning: RelationshipPlanning
    ) throws(RecordStoreError) -> SQLCondition {
        guard comparison.modifier == .direct, let nilAnswer = answer(comparison, for: .null) else { return .residualOnly }
        var inner = comparison
        inner.left = .keyPath(rest)
        let condition = try destinationPlanner(destination, planning: planning).condition(.comparison(inner))
        guard condition.isExact, let test = condition.sql else { return .residualOnly }
        let reference = column(field)
        let table = dialect.quote(TableLayout.recordTable(destination.name))
        let name = subqueryColumn(TableLayout.recordNameColumn)
        let zone = subqueryColumn(TableLayout.zoneColumn)
        let arguments = [SQLValue.text(referencePrefix(planning)), .text(TableLayout.zoneKey(planning.zone))] + condition.arguments
        if nilAnswer {
            // Nil (no reference, a dangling one, another type) passes: keep what does not fail.
            return .exact(
                "(\(reference) IS NULL OR \(reference) NOT IN (SELECT ? || \(name) FROM \(table) AS t WHERE \(zone) = ? AND NOT (\(test))))",
                arguments)
        }
        // The rows are found through the reference's index in a subquery of their own: as a term
        // of the outer query, SQLite may prefer reading the zone in the order asked to seeking
        // the index once per destination record.
        // Two-valued, as every condition is (a negation must keep a record whose reference is null).
        let listed = "(\(reference) IS NOT NULL AND \(reference) IN (SELECT ? || \(name) FROM \(table) AS t WHERE \(zone) = ? AND \(test)))"
        guard dialect.seeksListedValuesInOwnSubquery else { return .exact(listed, arguments) }
        let own = dialect.quote(TableLayout.recordTable(recordType))
        return .exact(
            "\(row) IN (SELECT t.\(dialect.rowIdentifier) FROM \(own) AS t WHERE \(zone) = ? AND \(subqueryColumn(field)) IN "
                + "(SELECT ? || \(name) FROM \(table) AS t WHERE \(zone) = ? AND \(test)))",
            [.text(TableLayout.zoneKey(planning.zone))] + arguments)
    }

    /// The record names of the destination's records whose inverse reference points at a
    /// record of the zone, as a select list: `substr(t."department", 16)`.
    private func inverseSelection(_ inverse: String, planning: RelationshipPlanning) -> (select: String, test: String, arguments: [SQLValue]) {
        let prefix = referencePrefix(planning)
        let length = prefix.unicodeScalars.count
        let reference = subqueryColumn(inverse)
        return (
            "substr(\(reference), \(length + 1))",
            "\(subqueryColumn(TableLayout.zoneColumn)) = ? AND \(reference) IS NOT NULL AND substr(\(reference), 1, \(length)) = ?",
            [.text(TableLayout.zoneKey(planning.zone)), .text(prefix)]
        )
    }

    private func anyOrAllCondition(
        _ comparison: ComparisonPredicate, destination: RecordTypeSchema, inverse: String, rest: String, planning: RelationshipPlanning
    ) throws(RecordStoreError) -> SQLCondition {
        var inner = comparison
        inner.left = .keyPath(rest)
        inner.modifier = .direct
        let condition = try destinationPlanner(destination, planning: planning).condition(.comparison(inner))
        guard condition.isExact, let test = condition.sql else { return .residualOnly }
        let table = dialect.quote(TableLayout.recordTable(destination.name))
        let selection = inverseSelection(inverse, planning: planning)
        let name = column(TableLayout.recordNameColumn)
        if comparison.modifier == .all {
            // Every member passes: no member fails (true when there is none).
            return .exact(
                "\(name) NOT IN (SELECT \(selection.select) FROM \(table) AS t WHERE \(selection.test) AND NOT (\(test)))",
                selection.arguments + condition.arguments)
        }
        return .exact(
            "\(name) IN (SELECT \(selection.select) FROM \(table) AS t WHERE \(selection.test) AND \(test))",
            selection.arguments + condition.arguments)
    }

    private func countCondition(
        _ operation: ComparisonOperator, _ constant: Value, destination: RecordTypeSchema, inverse: String, planning: RelationshipPlanning
    ) -> SQLCondition {
        let argument: SQLValue
        switch constant {
        case .int(let number): argument = .integer(number)
        case .double(let number) where number.isFinite: argument = .real(number)
        default: return .residualOnly
        }
        guard [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo].contains(operation) else {
            return .residualOnly
        }
        let symbol = operation == .notEqualTo ? "<>" : operation == .equalTo ? "=" : operation.symbol
        // Correlated: one seek of the reference's `(zone, field)` index per record; a record
        // with no member counts 0.
        let members = memberRows(destination: destination, inverse: inverse, planning: planning)
        return .exact("(SELECT count(*) \(members.from)) \(symbol) ?", members.arguments + [argument])
    }

    /// The members of this record's inverse to-many, for a correlated subquery:
    /// `FROM "Employee" AS t_m WHERE t_m."$zone" = t."$zone" AND t_m."department" = ? || t."$recordName"`,
    /// which one seek of the inverse reference's `(zone, field)` index reads. The members'
    /// alias (``memberAlias``) differs from this record's, which the condition reads.
    func memberRows(destination: RecordTypeSchema, inverse: String, planning: RelationshipPlanning) -> (from: String, arguments: [SQLValue]) {
        let table = dialect.quote(TableLayout.recordTable(destination.name))
        let member = { (name: String) in "\(self.memberAlias).\(self.dialect.quote(name))" }
        return (
            "FROM \(table) AS \(memberAlias) WHERE \(member(TableLayout.zoneColumn)) = \(column(TableLayout.zoneColumn)) "
                + "AND \(member(inverse)) IS NOT NULL AND \(member(inverse)) = ? || \(column(TableLayout.recordNameColumn))",
            [.text(referencePrefix(planning))]
        )
    }

    /// The alias of this record's members in a correlated subquery: `t_m`, `t_m_m`, ...
    var memberAlias: String { alias + "_m" }
}

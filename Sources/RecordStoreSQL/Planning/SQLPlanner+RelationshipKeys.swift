import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

extension SQLPlanner {
    /// A sort by a to-one's key path (`department.name`, `manager.department.name`), as a
    /// correlated scalar subquery that reads the referenced record through the destination's
    /// unique `(zone, record name)` index, ordered as a sort by the destination's own field
    /// (strings by their derived sort column or collation):
    ///
    /// `(SELECT t_m."name" FROM "Department" AS t_m WHERE t_m."$zone" = t."$zone" AND t_m."$recordName" = substr(t."department", 16) AND substr(t."department", 1, 15) = ?)`
    ///
    /// A nil or dangling reference (or one to another zone or type) reads as null, which sorts
    /// first ascending and last descending, as nil does in the evaluator's order. Nil when the
    /// key walks no relationship; ``OrderExpression/unsupported`` when it walks one SQL does not
    /// order by (a to-many, a reference without a declared destination, a key the destination
    /// lacks): the query is then refused with
    /// ``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)`` and walked in Swift.
    func relationshipOrderExpression(_ sort: Sort) -> OrderExpression? {
        guard let walked = walkedKey(sort.key) else { return nil }
        guard let destination = walked.destination, sort.distanceOrigin == nil, let planning = relationshipPlanning else { return .unsupported }
        let planner = destinationPlanner(destination, planning: planning, alias: memberAlias)
        guard case .expression(let sql, let arguments, let derived) = planner.orderExpression(
            Sort(walked.rest, ascending: sort.ascending, comparison: sort.comparison)) else { return .unsupported }
        if derived == nil, let value = relationshipValue(sort.key), value.type == .string {
            // A string without a derived sort column orders in a collation, which must apply to
            // the subquery's result: SQLite gives a scalar subquery's value the binary collation
            // whatever the column inside was collated with (a `localized` sort by
            // `manager.name` came out in code-point order).
            guard let collated = dialect.stringOrder(value.sql, comparison: sort.comparison) else { return .unsupported }
            return .expression(collated, value.arguments)
        }
        let lookup = referencedRow(walked.relationship, destination: destination, planning: planning)
        return .expression("(SELECT \(sql) \(lookup.from))", arguments + lookup.arguments, derived: derived)
    }

    /// The value of a to-one's key path (`department.name`) for `SELECT` and `GROUP BY`, with
    /// its arguments and the field type to read it as: a correlated scalar subquery as in
    /// ``relationshipOrderExpression(_:)``, null where the path reaches no record. Nil when the
    /// key walks no relationship or walks one SQL does not read (see there).
    func relationshipValue(_ key: String) -> (sql: String, arguments: [SQLValue], type: FieldType)? {
        guard let walked = walkedKey(key), let destination = walked.destination, let planning = relationshipPlanning else { return nil }
        let rest = walked.rest
        let planner = destinationPlanner(destination, planning: planning, alias: memberAlias)
        let inner: (sql: String, arguments: [SQLValue], type: FieldType)
        if let metadata = MetadataField(rawValue: rest) {
            inner = (dialect.metadataExpression(metadata, alias: memberAlias), [], metadata.fieldType)
        } else if let field = destination.field(named: rest), !field.type.isList {
            let column = dialect.storedValueExpression(field: field, alias: memberAlias)
            inner = (field.type == .bool ? dialect.booleanAsNumber(column) : column, [], field.type)
        } else if let walked = planner.relationshipValue(rest) {
            inner = walked
        } else {
            return nil
        }
        let lookup = referencedRow(walked.relationship, destination: destination, planning: planning)
        return ("(SELECT \(inner.sql) \(lookup.from))", inner.arguments + lookup.arguments, inner.type)
    }

    /// Whether a key walks a relationship of this type: the relationship, its destination's
    /// schema when SQL can read it (a to-one stored in a reference field, with a declared
    /// destination), and the rest of the key. Nil when the key walks nothing.
    func walkedKey(_ key: String) -> (relationship: String, destination: RecordTypeSchema?, rest: String)? {
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let planning = relationshipPlanning,
              let relationship = planning.catalog.walkableRelationship(parts[0], of: recordType) else { return nil }
        guard relationship.kind == .toOne, schema?.field(named: relationship.name)?.type == .reference,
              let destination = planning.destination(relationship.destination) else { return (relationship.name, nil, parts[1]) }
        return (relationship.name, destination, parts[1])
    }

    /// The record a to-one field of this record references, for a correlated subquery: the
    /// destination's row of the same zone whose record name follows the zone's prefix in the
    /// reference, sought through the destination's unique `(zone, record name)` index.
    private func referencedRow(_ field: String, destination: RecordTypeSchema, planning: RelationshipPlanning) -> (from: String, arguments: [SQLValue]) {
        let prefix = referencePrefix(planning)
        let length = prefix.unicodeScalars.count
        let table = dialect.quote(TableLayout.recordTable(destination.name))
        let member = { (name: String) in "\(self.memberAlias).\(self.dialect.quote(name))" }
        let reference = column(field)
        return (
            "FROM \(table) AS \(memberAlias) WHERE \(member(TableLayout.zoneColumn)) = \(column(TableLayout.zoneColumn)) "
                + "AND \(member(TableLayout.recordNameColumn)) = substr(\(reference), \(length + 1)) AND substr(\(reference), 1, \(length)) = ?",
            [.text(prefix)]
        )
    }
}

import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

extension SQLPlanner {
    /// The largest member a sum or mean adds in SQL exactly as the evaluator does: with at most
    /// ``exactMemberCount`` members of at most this size, every partial sum stays below 2^53,
    /// so it is the same integer and the same double in any order.
    static let exactMemberMagnitude: Int64 = 2_147_483_647
    /// The most members a sum or mean adds in SQL (see ``exactMemberMagnitude``).
    static let exactMemberCount: Int64 = 4_194_304

    /// `@sum`, `@avg`, `@min` or `@max` of a field of an inverse to-many's members compared with a
    /// constant, as a correlated aggregate of the members (one seek of the inverse reference's
    /// index per record), with the evaluator's answers for an empty set (`@sum` is 0, the others
    /// nil) and two-valued (a negation keeps the records for which it fails):
    ///
    /// `(SELECT coalesce(max(t_m."salary") < ?, FALSE) FROM "Employee" AS t_m WHERE t_m."$zone" = t."$zone" AND t_m."department" = ? || t."$recordName")`
    ///
    /// Planned where SQL computes exactly what the evaluator does: `@min`/`@max` of integers,
    /// doubles and dates; `@sum`/`@avg` of integers while the members are few and small enough
    /// that no partial sum is rounded (``exactMemberMagnitude``). A set beyond that fails the
    /// statement with a ``RelationshipWalkRefusal`` (the store then walks in Swift); a dialect that
    /// cannot fail one plans no sum or mean. Anything else (strings, whose order the evaluator
    /// and SQL may not share; doubles' sums, which depend on the order of the additions; a
    /// constant of another type) is ``SQLCondition/residualOnly``.
    func aggregateCondition(
        _ comparison: ComparisonPredicate, _ aggregate: MemberAggregate, destination: RecordTypeSchema, inverse: String,
        planning: RelationshipPlanning
    ) -> SQLCondition {
        guard comparison.modifier == .direct, comparison.options.isEmpty, case .constant(let constant) = comparison.right,
              let field = destination.field(named: aggregate.field), let symbol = Self.symbol(comparison.operator) else { return .residualOnly }
        let member = "\(memberAlias).\(dialect.quote(field.name))"
        let value: String
        let resultType: FieldType
        var guardCondition: String?
        switch aggregate.function {
        case .minimum, .maximum:
            guard [.int64, .double, .date].contains(field.type) else { return .residualOnly }
            value = "\(aggregate.function == .minimum ? "min" : "max")(\(member))"
            resultType = field.type
        case .sum, .average:
            guard field.type == .int64 else { return .residualOnly }
            let limit = Self.exactMemberMagnitude
            // Out-of-range members add 0 here, so the database's own sum never overflows; the
            // guard refuses any set that has one.
            let bounded = "sum(CASE WHEN \(member) BETWEEN \(-limit) AND \(limit) THEN \(member) ELSE 0 END)"
            guardCondition = "count(\(member)) <= \(Self.exactMemberCount) AND coalesce(min(\(member)), 0) >= \(-limit) "
                + "AND coalesce(max(\(member)), 0) <= \(limit)"
            if aggregate.function == .sum {
                value = "coalesce(\(bounded), 0)"
                resultType = .int64
            } else {
                value = "CASE WHEN count(\(member)) = 0 THEN NULL ELSE CAST(\(bounded) AS DOUBLE PRECISION) / count(\(member)) END"
                resultType = .double
            }
        default:
            return .residualOnly
        }
        let test: String
        var testArguments: [SQLValue] = []
        if constant.isNull {
            // Only a sum is never nil.
            switch comparison.operator {
            case .equalTo: test = "\(value) IS NULL"
            case .notEqualTo: test = "\(value) IS NOT NULL"
            default: return .residualOnly
            }
        } else {
            guard let argument = StoredValueEncoding.nativeArgument(constant, fieldType: resultType),
                  let nilAnswer = answer(comparison, for: .null) else { return .residualOnly }
            test = "coalesce(\(value) \(symbol) ?, \(dialect.literal(nilAnswer)))"
            testArguments = [argument]
        }
        let members = memberRows(destination: destination, inverse: inverse, planning: planning)
        guard let guardCondition else {
            return .exact("(SELECT \(test) \(members.from))", testArguments + members.arguments)
        }
        guard let refusal = dialect.refusal(depending: "count(\(member))") else { return .residualOnly }
        let message = RelationshipWalkRefusal.message(relationship: relationshipName(inverse: inverse, destination: destination), recordType: recordType)
        return .exact(
            "(SELECT CASE WHEN \(guardCondition) THEN \(test) ELSE \(refusal) END \(members.from))",
            testArguments + [.text(message)] + members.arguments)
    }

    /// `SUBQUERY(employees, $e, <predicate>).@count` compared with a number, over an inverse
    /// to-many: a correlated count of the members that pass the predicate, planned for the
    /// members' type (``SubqueryMemberPredicate``), one seek of the inverse reference's index per
    /// record. ``SQLCondition/residualOnly`` when the collection is not an inverse to-many of this
    /// type or the predicate is not exact in SQL.
    func subqueryCountCondition(
        _ comparison: ComparisonPredicate, collection: FormatExpression, variable: String, predicate: FormatPredicate,
        planning: RelationshipPlanning
    ) throws(RecordStoreError) -> SQLCondition {
        guard comparison.modifier == .direct, comparison.options.isEmpty, case .constant(let constant) = comparison.right,
              case .keyPath(let name) = collection, let relationship = schema?.relationship(named: name),
              case .toMany(let inverse) = relationship.kind,
              let destination = planning.destination(relationship.destination),
              destination.field(named: inverse)?.type == .reference,
              let symbol = Self.symbol(comparison.operator),
              let memberPredicate = SubqueryMemberPredicate.rewrite(predicate, variable: variable) else { return .residualOnly }
        let argument: SQLValue
        switch constant {
        case .int(let number): argument = .integer(number)
        case .double(let number) where number.isFinite: argument = .real(number)
        default: return .residualOnly
        }
        let condition = try destinationPlanner(destination, planning: planning, alias: memberAlias).condition(memberPredicate)
        guard condition.isExact else { return .residualOnly }
        let members = memberRows(destination: destination, inverse: inverse, planning: planning)
        let passing = condition.sql.map { " AND \($0)" } ?? ""
        return .exact("(SELECT count(*) \(members.from)\(passing)) \(symbol) ?", members.arguments + condition.arguments + [argument])
    }

    /// The SQL of a comparison of two numbers, or nil for any other operator.
    static func symbol(_ operation: ComparisonOperator) -> String? {
        switch operation {
        case .equalTo: "="
        case .notEqualTo: "<>"
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: operation.symbol
        default: nil
        }
    }

    /// The name of this type's to-many whose inverse is `inverse` on `destination`.
    private func relationshipName(inverse: String, destination: RecordTypeSchema) -> String {
        schema?.relationships.first { $0.destination == destination.name && $0.kind == .toMany(inverse: inverse) }?.name ?? inverse
    }
}

import Foundation
import PredicateLanguage

/// Turns a predicate and sorts into SQL plus a residual predicate.
///
/// SQL gets what it can do exactly: comparisons of a field (or metadata) with constants,
/// `IN` lists, `BETWEEN`, `BEGINSWITH`, nil tests, `ANY`/`IN`/`CONTAINS` on lists through
/// the list table, and `AND`/`OR`/`NOT` of exact parts. Comparisons that SQL cannot do
/// natively but that involve one stored value and constants run the evaluator itself
/// through `query_test`, so they are exact too. Full-text and radius searches narrow the
/// rows through FTS5 and the R*Tree. The rest (several fields at once, key paths into
/// values, `SUBQUERY`, `ALL`, variables) is the residual, checked by the evaluator on the
/// rows SQL returns; an `OR` or `NOT` with an inexact part goes to the residual whole.
struct QueryPlanner {
    let dialect: any SQLDialect
    /// The record type's schema; nil when the type has no records yet.
    let schema: RecordTypeSchema?
    let registry: ComparisonTestRegistry
    let recordType: String

    private var row: String { "t.\(dialect.rowIdentifier)" }

    private func column(_ name: String) -> String { "t.\(dialect.quote(name))" }

    /// Plans a query.
    func plan(_ specification: QuerySpecification) throws(RecordStoreError) -> SQLQueryPlan {
        let condition = try plan(specification.predicate)
        var whereClause = "\(column(TableLayout.zoneColumn)) = ?"
        var arguments: [SQLArgument] = [.text(specification.zone.zoneName)]
        if let sql = condition.sql {
            whereClause += " AND \(sql)"
            arguments += condition.arguments
        }
        let segments = specification.after.map { keysetSegments(specification.sorts, after: $0) } ?? []
        let residual = condition.isExact ? nil : residualPredicate(specification.predicate)
        let (orderBy, orderArguments) = try orderClause(specification.sorts)
        return SQLQueryPlan(
            whereClause: whereClause, whereArguments: arguments, orderBy: orderBy, orderArguments: orderArguments,
            residual: residual, keysetSegments: segments)
    }

    // MARK: Residual

    /// The parts of the predicate that SQL does not do exactly.
    private func residualPredicate(_ predicate: FormatPredicate) -> FormatPredicate? {
        if case .and(let parts) = predicate {
            let remaining = parts.compactMap { part -> FormatPredicate? in
                guard let condition = try? plan(part), condition.isExact else { return residualPredicate(part) ?? part }
                return nil
            }
            if remaining.isEmpty { return nil }
            return remaining.count == 1 ? remaining[0] : .and(remaining)
        }
        if let condition = try? plan(predicate), condition.isExact { return nil }
        return predicate
    }

    // MARK: Predicates

    private func plan(_ predicate: FormatPredicate) throws(RecordStoreError) -> SQLCondition {
        switch predicate {
        case .constant(let value):
            return .exact(value ? "1" : "0")
        case .and(let parts):
            var combined = SQLCondition.exact("1")
            combined.sql = nil
            for part in parts {
                combined = combined.and(try plan(part))
            }
            if combined.sql == nil, combined.isExact { return .exact("1") }
            return combined.sql.map { SQLCondition(sql: "(\($0))", arguments: combined.arguments, isExact: combined.isExact) } ?? combined
        case .or(let parts):
            if parts.isEmpty { return .exact("0") }
            var pieces: [String] = []
            var arguments: [SQLArgument] = []
            var exact = true
            for part in parts {
                let condition = try plan(part)
                guard let sql = condition.sql else { return .residualOnly }
                pieces.append(sql)
                arguments += condition.arguments
                exact = exact && condition.isExact
            }
            return SQLCondition(sql: "(" + pieces.joined(separator: " OR ") + ")", arguments: arguments, isExact: exact)
        case .not(let inner):
            let condition = try plan(inner)
            guard condition.isExact, let sql = condition.sql else { return .residualOnly }
            return .exact("NOT (\(sql))", condition.arguments)
        case .comparison(let comparison):
            return try plan(comparison)
        }
    }

    private func plan(_ comparison: ComparisonPredicate) throws(RecordStoreError) -> SQLCondition {
        if let fullText = fullTextCondition(comparison) { return fullText }
        if let distance = try distanceCondition(comparison) { return distance }
        if let list = try listCondition(comparison) { return list }
        guard comparison.modifier == .direct, let key = Self.singleKey(in: comparison) else { return .residualOnly }
        let substituted = ComparisonPredicate(
            Self.substitute(key, in: comparison.left), comparison.operator, Self.substitute(key, in: comparison.right),
            modifier: .direct, options: comparison.options)
        let columnName: String
        let type: FieldType
        if let metadata = MetadataField(rawValue: key) {
            columnName = TableLayout.column(metadata)
            type = metadata.fieldType
        } else if let field = schema?.field(named: key) {
            guard !field.type.isList else { return .residualOnly }
            columnName = field.name
            type = field.type
        } else {
            // No record has this field: every record sees nil, so the answer is a constant.
            guard let compiled = try? CompiledPredicate(.comparison(substituted)),
                  let answer = try? compiled.evaluate(value: .null) else { return .residualOnly }
            return .exact(answer ? "1" : "0")
        }
        if let native = nativeCondition(comparison, key: key, column: column(columnName), type: type) {
            return native
        }
        return try test(.comparison(substituted), type: type, value: column(columnName))
    }

    /// `query_test(n, type, value)` for a comparison of `SELF` with constants.
    private func test(_ predicate: FormatPredicate, type: FieldType, value: String) throws(RecordStoreError) -> SQLCondition {
        let number = try registry.register(predicate)
        return .exact(dialect.comparisonTest(predicate: "?", typeCode: StoredValueEncoding.typeCode(type), value: value), [.integer(number)])
    }

    /// A comparison SQL does natively with the evaluator's meaning, or nil.
    private func nativeCondition(_ comparison: ComparisonPredicate, key: String, column: String, type: FieldType) -> SQLCondition? {
        guard comparison.options.isEmpty else { return nil }
        var operation = comparison.operator
        let constant: Value
        switch (comparison.left, comparison.right) {
        case (.keyPath(key), .constant(let value)):
            constant = value
        case (.constant(let value), .keyPath(key)):
            constant = value
            switch operation {
            case .lessThan: operation = .greaterThan
            case .lessThanOrEqualTo: operation = .greaterThanOrEqualTo
            case .greaterThan: operation = .lessThan
            case .greaterThanOrEqualTo: operation = .lessThanOrEqualTo
            case .equalTo, .notEqualTo: break
            default: return nil
            }
        default:
            return nil
        }
        if constant.isNull {
            switch operation {
            case .equalTo: return .exact("\(column) IS NULL")
            case .notEqualTo: return .exact("\(column) IS NOT NULL")
            default: return nil
            }
        }
        switch operation {
        case .equalTo:
            guard let argument = StoredValueEncoding.nativeArgument(StringNormalization.nfc(constant), fieldType: type) else { return nil }
            return .exact("(\(column) IS NOT NULL AND \(column) = ?)", [argument])
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard let argument = StoredValueEncoding.nativeArgument(constant, fieldType: type) else { return nil }
            let symbol = operation.symbol
            return .exact("(\(column) IS NOT NULL AND \(column) \(symbol) ?)", [argument])
        case .notEqualTo:
            guard let argument = StoredValueEncoding.nativeArgument(StringNormalization.nfc(constant), fieldType: type) else { return nil }
            return .exact("(\(column) IS NULL OR \(column) <> ?)", [argument])
        case .between:
            guard case .list(let bounds) = constant, bounds.count == 2,
                  let lower = StoredValueEncoding.nativeArgument(bounds[0], fieldType: type),
                  let upper = StoredValueEncoding.nativeArgument(bounds[1], fieldType: type) else { return nil }
            return .exact("(\(column) IS NOT NULL AND \(column) BETWEEN ? AND ?)", [lower, upper])
        case .in:
            guard case .list(let members) = constant else { return nil }
            var arguments: [SQLArgument] = []
            for member in members {
                guard let argument = StoredValueEncoding.nativeArgument(StringNormalization.nfc(member), fieldType: type) else { return nil }
                arguments.append(argument)
            }
            if arguments.isEmpty { return .exact("0") }
            let placeholders = Array(repeating: "?", count: arguments.count).joined(separator: ", ")
            return .exact("(\(column) IS NOT NULL AND \(column) IN (\(placeholders)))", arguments)
        default:
            return nil
        }
    }

    // MARK: Lists

    /// `ANY list op c`, `list CONTAINS c`, `c IN list` through the list table.
    private func listCondition(_ comparison: ComparisonPredicate) throws(RecordStoreError) -> SQLCondition? {
        let key: String
        let element: ComparisonPredicate
        switch (comparison.left, comparison.operator, comparison.right, comparison.modifier) {
        case (.keyPath(let path), _, .constant, .any):
            key = path
            element = ComparisonPredicate(.evaluatedObject, comparison.operator, comparison.right, options: comparison.options)
        case (.keyPath(let path), .contains, .constant(let value), .direct) where comparison.options.isEmpty && !value.isList:
            guard schema?.field(named: path)?.type.isList == true else { return nil }
            key = path
            element = ComparisonPredicate(.evaluatedObject, .equalTo, .constant(value))
        case (.constant(let value), .in, .keyPath(let path), .direct) where comparison.options.isEmpty && !value.isList:
            guard schema?.field(named: path)?.type.isList == true else { return nil }
            key = path
            element = ComparisonPredicate(.evaluatedObject, .equalTo, .constant(value))
        default:
            return nil
        }
        guard let field = schema?.field(named: key), let elementType = field.type.elementType else { return nil }
        let listTable = dialect.quote(TableLayout.listTable(recordType))
        var memberCondition: SQLCondition
        if element.operator == .equalTo, element.options.isEmpty, case .constant(let value) = element.right,
           let argument = StoredValueEncoding.nativeArgument(StringNormalization.nfc(value), fieldType: elementType) {
            memberCondition = .exact("l.value = ?", [argument])
        } else {
            memberCondition = try test(.comparison(element), type: elementType, value: "l.value")
        }
        return .exact(
            "EXISTS (SELECT 1 FROM \(listTable) AS l WHERE l.record = \(row) AND l.field = ? AND \(memberCondition.sql ?? "1"))",
            [.text(field.name)] + memberCondition.arguments)
    }

    // MARK: Full text

    /// `self CONTAINS "words"`: rows whose searchable text holds any of the words (FTS5),
    /// checked again by the evaluator.
    private func fullTextCondition(_ comparison: ComparisonPredicate) -> SQLCondition? {
        guard case .evaluatedObject = comparison.left, comparison.operator == .contains, comparison.modifier == .direct,
              case .constant(.string(let text)) = comparison.right else { return nil }
        let tokens = Array(FullTextTokenizer.tokenSet(text)).sorted()
        guard let schema, !schema.searchableFieldNames.isEmpty, !tokens.isEmpty else { return .exact("0") }
        return .exact(dialect.fullTextCondition(recordType: recordType, row: row), [.text(dialect.fullTextQuery(anyOf: tokens))])
    }

    // MARK: Location

    /// `distanceToLocation:fromLocation:(field, point) < meters` (or `<=`, or the sides swapped):
    /// an R*Tree box around the circle, then the exact distance through the evaluator.
    private func distanceCondition(_ comparison: ComparisonPredicate) throws(RecordStoreError) -> SQLCondition? {
        guard comparison.modifier == .direct else { return nil }
        let function: FormatExpression
        let radiusValue: Value
        switch (comparison.left, comparison.operator, comparison.right) {
        case (.function(let name, _), .lessThan, .constant(let radius)),
             (.function(let name, _), .lessThanOrEqualTo, .constant(let radius)):
            guard name == "distanceToLocation:fromLocation:" else { return nil }
            function = comparison.left
            radiusValue = radius
        case (.constant(let radius), .greaterThan, .function(let name, _)),
             (.constant(let radius), .greaterThanOrEqualTo, .function(let name, _)):
            guard name == "distanceToLocation:fromLocation:" else { return nil }
            function = comparison.right
            radiusValue = radius
        default:
            return nil
        }
        guard case .function(_, let arguments) = function, arguments.count == 2, let radius = radiusValue.numericValue, radius.isFinite else { return nil }
        let key: String
        let origin: Location
        switch (arguments[0], arguments[1]) {
        case (.keyPath(let path), .constant(.location(let point))), (.constant(.location(let point)), .keyPath(let path)):
            key = path
            origin = point
        default:
            return nil
        }
        guard let field = schema?.field(named: key), field.type == .location, origin.isValid else { return nil }
        let substituted = ComparisonPredicate(
            Self.substitute(key, in: comparison.left), comparison.operator, Self.substitute(key, in: comparison.right))
        let exactTest = try test(.comparison(substituted), type: .location, value: column(field.name))
        guard radius >= 0 else { return exactTest }
        let box = BoundingBox(around: origin, radius: radius)
        var boxes: [SQLCondition] = []
        for longitudeRange in box.longitudeRanges {
            boxes.append(.superset(
                dialect.boundingBoxCondition(recordType: recordType, field: field.name, row: row),
                [.real(box.minimumLatitude), .real(box.maximumLatitude), .real(longitudeRange.lowerBound), .real(longitudeRange.upperBound)]))
        }
        let candidates = boxes.count == 1
            ? boxes[0]
            : SQLCondition.superset("(" + boxes.compactMap(\.sql).joined(separator: " OR ") + ")", boxes.flatMap(\.arguments))
        return SQLCondition(sql: "\(candidates.sql ?? "1") AND \(exactTest.sql ?? "1")", arguments: candidates.arguments + exactTest.arguments, isExact: true)
    }

    // MARK: Sorting

    /// The SQL expression a sort orders by (collated for strings), with its arguments; nil for a
    /// field no record has (every record sees nil there, so it does not change the order).
    private func orderExpression(_ sort: Sort) -> (sql: String, arguments: [SQLArgument])? {
        if let metadata = MetadataField(rawValue: sort.key) {
            let expression = column(TableLayout.column(metadata))
            return (metadata.fieldType == .string ? dialect.collate(expression, comparison: sort.comparison) : expression, [])
        }
        guard let field = schema?.field(named: sort.key) else { return nil }
        if let origin = sort.distanceOrigin {
            return (dialect.distance(
                latitude: column(TableLayout.latitudeColumn(field.name)),
                longitude: column(TableLayout.longitudeColumn(field.name))), [.real(origin.latitude), .real(origin.longitude)])
        }
        let expression = column(field.name)
        return (field.type == .string ? dialect.collate(expression, comparison: sort.comparison) : expression, [])
    }

    private func orderClause(_ sorts: [Sort]) throws(RecordStoreError) -> (String, [SQLArgument]) {
        var terms: [String] = []
        var arguments: [SQLArgument] = []
        for sort in sorts {
            guard let expression = orderExpression(sort) else { continue }
            terms.append(expression.sql + " " + (sort.ascending ? "ASC" : "DESC"))
            arguments += expression.arguments
        }
        terms.append("\(column(TableLayout.recordNameColumn)) ASC")
        return (terms.joined(separator: ", "), arguments)
    }

    // MARK: Keyset

    /// The rows strictly after a keyset position in the order of the sorts, then the record name,
    /// as conditions to run one after the other (each in the query's order).
    ///
    /// For each sort: the rows equal on every earlier key and after on this one, or equal on all
    /// keys with a greater record name. Ascending order puts nil first, descending last, as
    /// `ORDER BY` does. A leading "at or after on the first key" range lets an index seek; when
    /// the first key is descending and not nil, the rows where it is nil (which come last) are a
    /// second segment, so that the first stays a plain range `x <= ?` an index can seek.
    func keysetSegments(_ sorts: [Sort], after position: KeysetPosition) -> [SQLCondition] {
        typealias Part = (sql: String, arguments: [SQLArgument])
        var equalities: [Part] = []
        var alternatives: [Part] = []
        var leading: Part?
        var nullSegment: Part?
        for (index, sort) in sorts.enumerated() where index < position.sortValues.count {
            guard let expression = orderExpression(sort) else { continue }
            let value = position.sortValues[index]
            let x = expression.sql
            let xa = expression.arguments
            let after: Part?
            let equal: Part
            let atOrAfter: Part?
            let isFirst = equalities.isEmpty
            if value.isNull {
                equal = ("\(x) IS NULL", xa)
                after = sort.ascending ? ("\(x) IS NOT NULL", xa) : nil
                atOrAfter = sort.ascending ? nil : equal
            } else {
                let argument = StoredValueEncoding.encode(value)
                equal = ("\(x) = ?", xa + [argument])
                if sort.ascending {
                    after = ("\(x) > ?", xa + [argument])
                    atOrAfter = ("\(x) >= ?", xa + [argument])
                } else if isFirst {
                    after = ("\(x) < ?", xa + [argument])
                    atOrAfter = ("\(x) <= ?", xa + [argument])
                    nullSegment = ("\(x) IS NULL", xa)
                } else {
                    after = ("(\(x) < ? OR \(x) IS NULL)", xa + [argument] + xa)
                    atOrAfter = nil
                }
            }
            if isFirst { leading = atOrAfter }
            if let after {
                let parts = equalities + [after]
                alternatives.append((parts.map(\.sql).joined(separator: " AND "), parts.flatMap(\.arguments)))
            }
            equalities.append(equal)
        }
        let nameParts: [Part] = equalities + [("\(column(TableLayout.recordNameColumn)) > ?", [.text(position.recordName)])]
        alternatives.append((nameParts.map(\.sql).joined(separator: " AND "), nameParts.flatMap(\.arguments)))
        var sql = "(" + alternatives.map { "(\($0.sql))" }.joined(separator: " OR ") + ")"
        var arguments = alternatives.flatMap(\.arguments)
        if let leading {
            sql = "\(leading.sql) AND \(sql)"
            arguments = leading.arguments + arguments
        }
        var segments = [SQLCondition.exact(sql, arguments)]
        if let nullSegment { segments.append(.exact(nullSegment.sql, nullSegment.arguments)) }
        return segments
    }

    // MARK: Expressions

    /// The one key path a comparison reads, when everything else is constant; nil otherwise.
    static func singleKey(in comparison: ComparisonPredicate) -> String? {
        var keys = Set<String>()
        guard collectKeys(comparison.left, into: &keys), collectKeys(comparison.right, into: &keys), keys.count == 1,
              let key = keys.first, !key.contains("."), !key.contains("@") else { return nil }
        return key
    }

    private static func collectKeys(_ expression: FormatExpression, into keys: inout Set<String>) -> Bool {
        switch expression {
        case .constant: return true
        case .keyPath(let path):
            keys.insert(path)
            return true
        case .arithmetic(_, let left, let right):
            return collectKeys(left, into: &keys) && collectKeys(right, into: &keys)
        case .negation(let inner), .cast(let inner, _):
            return collectKeys(inner, into: &keys)
        case .aggregate(let members):
            return members.allSatisfy { collectKeys($0, into: &keys) }
        case .function(let name, let arguments):
            guard name != "now", name != "random", name != "randomn:" else { return false }
            return arguments.allSatisfy { collectKeys($0, into: &keys) }
        default:
            return false
        }
    }

    /// The expression with the key path replaced by `SELF`.
    static func substitute(_ key: String, in expression: FormatExpression) -> FormatExpression {
        switch expression {
        case .keyPath(key): return .evaluatedObject
        case .arithmetic(let operation, let left, let right):
            return .arithmetic(operation, substitute(key, in: left), substitute(key, in: right))
        case .negation(let inner): return .negation(substitute(key, in: inner))
        case .cast(let inner, let type): return .cast(substitute(key, in: inner), type)
        case .aggregate(let members): return .aggregate(members.map { substitute(key, in: $0) })
        case .function(let name, let arguments): return .function(name, arguments.map { substitute(key, in: $0) })
        default: return expression
        }
    }
}

extension Value {
    /// Whether this is a list.
    fileprivate var isList: Bool {
        if case .list = self { return true }
        return false
    }
}

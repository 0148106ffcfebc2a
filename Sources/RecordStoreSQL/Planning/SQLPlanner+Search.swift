import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

extension SQLPlanner {
    // MARK: Full text

    /// A full-text search (``TokenSearch``: one comparison, or all those of an `AND` or `OR` that
    /// read the same text) as one match of the dialect's full-text index, which holds the tokens
    /// the evaluator's tokenizer makes of the searchable fields.
    ///
    /// `SELF CONTAINS "words"` is answered exactly. A token search of one field
    /// (`ANY tokenize:using:(field, nil) == "word"`) reads a SEARCHABLE field's words, which the
    /// index holds among the record's others: the match keeps a superset of the records, which
    /// the residual tests; on a field that is not searchable it is left to the residual.
    package func fullTextCondition(_ search: TokenSearch) -> SQLCondition {
        switch search.target {
        case .searchableText:
            guard let schema, !schema.searchableFieldNames.isEmpty, !search.groups.contains(where: \.isEmpty) else { return constant(false) }
            guard let query = dialect.fullTextQuery(allOf: search.groups) else { return .residualOnly }
            return .exact(dialect.fullTextCondition(recordType: recordType, alias: alias), [.text(query)])
        case .tokens(.function(_, let arguments)):
            guard case .keyPath(let key)? = arguments.first, let field = schema?.field(named: key), field.isSearchable,
                  !search.groups.contains(where: \.isEmpty),
                  let query = dialect.fullTextQuery(allOf: search.groups) else { return .residualOnly }
            return .superset(dialect.fullTextCondition(recordType: recordType, alias: alias), [.text(query)])
        case .tokens:
            return .residualOnly
        }
    }

    // MARK: Location

    /// The dialect's distance (``SQLDialect/distance(latitude:longitude:)``) from a location
    /// field's stored latitude and longitude to two bound values; nil when it has none. Radius
    /// tests and distance sorts both use it.
    @_spi(StorageEngine) public func distanceExpression(_ field: String) -> String? {
        dialect.distance(latitude: column(TableLayout.latitudeColumn(field)), longitude: column(TableLayout.longitudeColumn(field)))
    }

    /// `distanceToLocation:fromLocation:(field, point) < meters` (or `<=`, or the sides swapped):
    /// the dialect's spatial index narrows the rows to a box around the circle, then the exact
    /// distance is checked through the evaluator (in SQL when the dialect can call it, otherwise
    /// in the residual).
    @_spi(StorageEngine) public func distanceCondition(_ comparison: ComparisonPredicate) throws(RecordStoreError) -> SQLCondition? {
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
        let fieldFirst: Bool
        switch (arguments[0], arguments[1]) {
        case (.keyPath(let path), .constant(.location(let point))):
            (key, origin, fieldFirst) = (path, point, true)
        case (.constant(.location(let point)), .keyPath(let path)):
            (key, origin, fieldFirst) = (path, point, false)
        default:
            return nil
        }
        guard let field = schema?.field(named: key), field.type == .location, origin.isValid else { return nil }
        let inclusive = comparison.operator == .lessThanOrEqualTo || comparison.operator == .greaterThanOrEqualTo
        let exactTest: SQLCondition
        if fieldFirst, let distance = distanceExpression(field.name) {
            // The dialect's distance is the evaluator's `field.distance(to: origin)` on the
            // stored coordinates (exact doubles): the same number, without reading the location
            // from its text for each row in the box. A record without the field is false, never
            // null, so that the test negates as the evaluator's does.
            exactTest = .exact(
                "COALESCE(\(distance) \(inclusive ? "<=" : "<") ?, \(dialect.literal(false)))",
                [.real(origin.latitude), .real(origin.longitude), .real(radius)])
        } else {
            exactTest = try test(.comparison(ComparisonKey.substitute(key, in: comparison)), type: .location, value: column(field.name))
        }
        // Without a spatial index (a location field that is not queryable) every row is tested.
        guard radius >= 0, field.isIndexed else { return exactTest }
        let box = BoundingBox(around: origin, radius: radius)
        var boxes: [SQLCondition] = []
        for longitudeRange in box.longitudeRanges {
            boxes.append(dialect.boundingBoxCondition(
                recordType: recordType, field: field.name, alias: alias,
                latitudes: box.minimumLatitude...box.maximumLatitude, longitudes: longitudeRange))
        }
        let candidates = boxes.count == 1
            ? boxes[0]
            : SQLCondition.superset("(" + boxes.compactMap(\.sql).joined(separator: " OR ") + ")", boxes.flatMap(\.arguments))
        guard let exactSQL = exactTest.sql else { return candidates }
        return .exact("\(candidates.sql ?? dialect.literal(true)) AND \(exactSQL)", candidates.arguments + exactTest.arguments)
    }
}

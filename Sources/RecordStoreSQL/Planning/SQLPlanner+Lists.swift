import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

extension SQLPlanner {
    /// `ANY list op c`, `list CONTAINS c`, `c IN list` through the list table: a row of the
    /// list table for the record and field whose member meets the condition. Nil for a list
    /// field that is not queryable (``IndexPolicy``), whose members the list table does not hold.
    @_spi(StorageEngine) public func listCondition(_ comparison: ComparisonPredicate) throws(RecordStoreError) -> SQLCondition? {
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
        // A list that is not queryable has no members in the list table: its JSON is read.
        guard field.isQueryable else { return try jsonMembersCondition(element, field: field, elementType: elementType) }
        let members = dialect.listMembers(recordType: recordType, field: field.name)
        let memberCondition: SQLCondition
        // Whether the condition is an equality or a prefix range the member indexes seek.
        var seeksIndex = false
        if element.operator == .equalTo, element.options.isEmpty, case .constant(let value) = element.right,
           let argument = nativeArgument(value, fieldType: elementType) {
            let member = elementType == .bool ? dialect.booleanAsNumber("l.value") : "l.value"
            memberCondition = .exact("\(member) = ?", [argument])
            seeksIndex = true
        } else if let folded = memberStringCondition(element, field: field) {
            memberCondition = folded
            seeksIndex = [.equalTo, .in, .beginsWith].contains(element.operator)
        } else {
            // Without an exact member test, any record with a member of the field is a candidate.
            memberCondition = try test(.comparison(element), type: elementType, value: "l.value")
        }
        let fieldTest = members.sharedByFields ? "l.field = ? AND " : ""
        let arguments = (members.sharedByFields ? [SQLValue.text(field.name)] : []) + memberCondition.arguments
        let test = memberCondition.sql ?? dialect.literal(true)
        if seeksIndex {
            // One uncorrelated subquery: the member index `(field, value, record)` is sought once
            // for the whole range, rather than once per record (each time reading the whole range).
            return SQLCondition(
                sql: "\(row) IN (SELECT l.record FROM \(members.table) AS l WHERE \(fieldTest)\(test))",
                arguments: arguments, isExact: memberCondition.isExact)
        }
        // A test no index serves reads the members of each candidate record only, by record.
        return SQLCondition(
            sql: "EXISTS (SELECT 1 FROM \(members.table) AS l WHERE l.record = \(row) AND \(fieldTest)\(test))",
            arguments: arguments, isExact: memberCondition.isExact)
    }
}

extension SQLPlanner {
    /// `ANY list op c` over a list whose members the list table does not keep (not queryable):
    /// each record's members read from its JSON column (``SQLDialect/jsonArrayMembers(_:elementType:)``),
    /// so that only the record's list is decoded, not the record. Each member is tested by the
    /// evaluator's callback where the database has it (SQLite), or else by the comparisons SQL
    /// makes natively with the evaluator's meaning (``nativeCondition(_:key:column:type:)``, and
    /// for strings without options the byte ranges and substring tests of
    /// ``fieldStringCondition(_:key:field:)``). Nil (the residual reads the records) where the
    /// database cannot read JSON or decide the test exactly, and for members JSON does not hold
    /// as the stored scalars (dates, bytes, locations and references are objects in the list's
    /// JSON; booleans are `true`/`false`).
    func jsonMembersCondition(_ element: ComparisonPredicate, field: FieldSchema, elementType: FieldType) throws(RecordStoreError) -> SQLCondition? {
        guard [.string, .int64, .double].contains(elementType),
              let members = dialect.jsonArrayMembers(dialect.storedValueExpression(field: field, alias: alias), elementType: elementType) else { return nil }
        let value = "l.value"
        var memberTest = try test(.comparison(element), type: elementType, value: value)
        if !memberTest.isExact || memberTest.sql == nil, let native = nativeMemberCondition(element, type: elementType, column: value) {
            memberTest = native
        }
        guard memberTest.isExact, let sql = memberTest.sql else { return nil }
        return SQLCondition(sql: "EXISTS (SELECT 1 FROM \(members) AS l WHERE \(sql))", arguments: memberTest.arguments, isExact: true)
    }

    /// A member's comparison (`SELF op c`) as native SQL on `column`, or nil.
    private func nativeMemberCondition(_ element: ComparisonPredicate, type: FieldType, column: String) -> SQLCondition? {
        // The comparisons are written for a key path; a member is one that no field can name.
        let key = "$member"
        func named(_ expression: FormatExpression) -> FormatExpression { expression == .evaluatedObject ? .keyPath(key) : expression }
        let comparison = ComparisonPredicate(named(element.left), element.operator, named(element.right), options: element.options)
        if let native = nativeCondition(comparison, key: key, column: column, type: type) { return native }
        guard type == .string else { return nil }
        return stringCondition(comparison, subject: .keyPath(key)) { derived in derived == nil ? column : nil }
    }
}

extension Value {
    /// Whether this is a list.
    fileprivate var isList: Bool {
        if case .list = self { return true }
        return false
    }
}

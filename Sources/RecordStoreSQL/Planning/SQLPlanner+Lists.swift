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
        } else if let callback = memberTest.sql, let lead = leadingScalarFilter(element, column: value), let filter = lead.sql {
            // The callback only for the members whose first code point may match (SQLite
            // tests the parts of an AND in order): exact when the callback is.
            memberTest = SQLCondition(sql: "\(filter) AND \(callback)", arguments: lead.arguments + memberTest.arguments, isExact: memberTest.isExact)
        }
        guard memberTest.isExact, let sql = memberTest.sql else { return nil }
        return SQLCondition(sql: "EXISTS (SELECT 1 FROM \(members) AS l WHERE \(sql))", arguments: memberTest.arguments, isExact: true)
    }

    /// A condition every member that meets the comparison meets, read on the member as stored
    /// (`column`, not in NFC), cheap enough to run before the evaluator's callback so that
    /// SQLite calls it for few members; nil when there is none.
    ///
    /// Without options, every string that meets `SELF BEGINSWITH c`, `SELF == c` (`c` not empty)
    /// or `SELF LIKE p` (`p` starting with a literal) starts, in NFC, with the first code point
    /// `b` of `c` in NFC (of `p`'s literal prefix). When `b` is ASCII, the string as stored
    /// starts with `b` or with a code point beyond ASCII: an ASCII code point has no canonical
    /// decomposition and stays first in the canonical decomposition of the string, so its NFC
    /// starts with that code point or with a composite of it, and no composite is ASCII. In
    /// code-point (UTF-8 byte) order that is `column >= b AND (column < b + 1 OR column >= U+0080)`.
    /// Numbers and nulls never meet these comparisons, and SQLite orders them before every text.
    ///
    /// ```swift
    /// // ANY names BEGINSWITH "K"  →  (l.value >= ? AND (l.value < ? OR l.value >= ?)) AND query_test(?, 1, l.value)
    /// //                              ["K", "L", "\u{80}", number]
    /// ```
    func leadingScalarFilter(_ element: ComparisonPredicate, column: String) -> SQLCondition? {
        guard element.options.isEmpty, element.left == .evaluatedObject, case .constant(.string(let constant)) = element.right else { return nil }
        let leading: String
        switch element.operator {
        case .beginsWith, .equalTo: leading = TextFolding.normalized(constant)
        case .like: leading = LikePattern.literalPrefix(of: constant)
        default: return nil
        }
        guard let first = leading.unicodeScalars.first, first.isASCII,
              let next = Self.prefixUpperBound(String(first)) else { return nil }
        let ordered = dialect.codePointOrder(column)
        return .superset("(\(ordered) >= ? AND (\(ordered) < ? OR \(ordered) >= ?))", [.text(String(first)), .text(next), .text("\u{80}")])
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

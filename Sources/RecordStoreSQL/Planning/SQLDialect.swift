import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// What differs between SQL databases in the planner's output. Everything else in planning,
/// and in running the plans (``SQLExecutor``), is shared.
///
/// Besides spelling (quoting, placeholders, boolean literals, null order), a dialect says which
/// comparisons the database can run *exactly as the evaluator does*. Where it cannot (no
/// callback into Swift, no collation with Swift's order), the method returns nil and the
/// planner falls back: a superset condition where one exists, the exact test left to the
/// residual predicate, and sorting in Swift. Results stay exact either way; only speed differs.
///
/// ```swift
/// let dialect: any SQLDialect = SQLiteDialect(registry: ComparisonTestRegistry())
/// dialect.quote("population")                         // "population" (double-quoted)
/// dialect.literal(true)                               // 1
/// dialect.stringOrder("t.\"name\"", comparison: .compare)   // t."name"
/// ```
@_spi(StorageEngine) public protocol SQLDialect: Sendable {
    /// The dialect's name, shown in plans.
    var name: String { get }
    /// A quoted identifier (the name is already checked to be letters, digits, `_` and `$`).
    func quote(_ identifier: String) -> String
    /// The statement with the planner's `?` markers turned into the dialect's placeholders.
    func numberPlaceholders(_ sql: String) -> String
    /// The row identifier column of a record table (a 64-bit integer unique in the table).
    var rowIdentifier: String { get }
    /// Whether a test of an indexed column against a subquery's list (`t.department IN (SELECT …)`)
    /// should be a subquery of the table's own rows (`rowid IN (SELECT rowid … WHERE t.department
    /// IN (…))`): SQLite may otherwise read the zone in the order asked rather than seek the index
    /// once per listed value; PostgreSQL plans the plain form as a semi-join, and the wrapped one badly.
    var seeksListedValuesInOwnSubquery: Bool { get }
    /// A condition that is always true or always false.
    func literal(_ value: Bool) -> String
    /// Whether `ORDER BY x ASC` puts nulls first unless told otherwise (SQLite: yes;
    /// PostgreSQL: no). The planner writes `NULLS FIRST`/`NULLS LAST` where the default differs
    /// from the store's order (nil first ascending, last descending).
    var sortsNullsFirstAscending: Bool { get }
    /// An `ORDER BY` term in the store's null order (a default in an extension).
    func orderTerm(_ expression: String, ascending: Bool) -> String
    /// The clause that pages a select: limit, then offset (a default in an extension).
    var limitAndOffsetClause: String { get }
    /// Whether the database binds a value exactly as given (SQLite's text binding stops at a
    /// NUL character: such a plan is run as a scan with the predicate as residual).
    func bindsExactly(_ value: SQLValue) -> Bool

    /// An expression of a string column ordered (and compared with `<`, `>`) by `comparison`:
    /// for ``SortComparison/compare``, code-point order (SQLite's `BINARY`, PostgreSQL's
    /// `COLLATE "C"`), which every dialect must support; for the others, nil when the
    /// database has no collation with exactly Swift's order.
    func stringOrder(_ expression: String, comparison: SortComparison) -> String?
    /// A condition that runs the evaluator's comparison of `SELF` with constants on a stored
    /// value (through a function calling back into Swift), true or false, never null; nil
    /// when the database cannot call Swift. `predicate` is the placeholder of its number.
    func comparisonTest(_ predicate: FormatPredicate, typeCode: Int, value: String) throws(RecordStoreError) -> SQLCondition?
    /// A condition that, when evaluated, fails the statement with an error whose message holds
    /// the one bound string (a ``RelationshipWalkRefusal/message(relationship:recordType:)``);
    /// `expression` is a value of the row it depends on, so that the database cannot evaluate it
    /// before the row is read. Nil when the database cannot fail a statement on purpose (the
    /// planner then plans nothing that needs it).
    func refusal(depending expression: String) -> String?
    /// The great-circle distance in meters, exactly as the evaluator computes it, from columns
    /// of latitude and longitude to two bound values; nil when the database cannot.
    func distance(latitude: String, longitude: String) -> String?

    /// A condition that the string expression contains the one bound string, code point for code
    /// point (SQLite: `instr(x, ?) > 0`; PostgreSQL: `strpos(x, $1) > 0`); the expression is
    /// never null where this is used.
    func containsCondition(_ expression: String) -> String
    /// A condition that the string expression ends with a bound string, given as two bound
    /// values: its length in code points, then the string (SQLite: `substr(x, -?) = ?`).
    func endsWithCondition(_ expression: String) -> String

    /// A condition that the string expression matches a `LIKE` pattern whole, with its one bound
    /// value: the pattern in the database's own wildcard language, matching one code point per
    /// `?` and any run of code points per `*`, literal characters escaped (SQLite: `x GLOB ?`;
    /// PostgreSQL: `x LIKE ?`). The expression is never null where this is used, and holds the
    /// string folded as the pattern was compiled.
    func patternCondition(_ expression: String, pattern: LikePattern) -> SQLCondition

    /// The value bound to `LIMIT` for "no limit" (SQLite: -1; PostgreSQL: null).
    var unlimited: SQLValue { get }
    /// A boolean column as a number (0 or 1) for comparisons with numbers, as the evaluator
    /// compares booleans (SQLite stores them as integers already; PostgreSQL casts).
    func booleanAsNumber(_ expression: String) -> String

    /// Where a list field's members are stored: the quoted table (aliased `l` by the planner,
    /// with columns `record`, `value` and the folded member columns) and whether that table
    /// holds the members of every list field of the type (then the planner adds `l.field = ?`).
    func listMembers(recordType: String, field: String) -> (table: String, sharedByFields: Bool)

    /// A table of the members of the JSON array `expression` holds (a list field's column, for a
    /// list whose members the list table does not keep), with a `value` column holding each
    /// member of type `elementType` (a string, an integer or a double) as the planner compares
    /// that type's columns: strings in NFC and ordered by their bytes. SQLite: `json_each(x)`,
    /// whose members the evaluator's callback tests; PostgreSQL: `jsonb_array_elements_text`,
    /// cast and normalized. Nil when the database cannot read JSON (a default in an extension).
    /// The planner aliases it `l`.
    func jsonArrayMembers(_ expression: String, elementType: FieldType) -> String?

    /// A condition that the row of the table aliased `alias` is among the full-text matches of
    /// the one bound query.
    func fullTextCondition(recordType: String, alias: String) -> String
    /// The full-text query (bound to ``fullTextCondition(recordType:alias:)``) matching a row
    /// that has a token of each group (no group is empty); nil when the index cannot answer it (a
    /// word longer than it holds): the records are then read and tested by the evaluator.
    func fullTextQuery(allOf groups: [[String]]) -> String?
    /// A condition (with its bound values) that the location field of the row of the table
    /// aliased `alias` lies in a box of latitudes and longitudes (degrees, bounds included).
    func boundingBoxCondition(
        recordType: String, field: String, alias: String, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>
    ) -> SQLCondition

    /// The expression whose value is a string field's derived column (``DerivedColumn``) in the
    /// row of the table aliased `alias`: the column itself, unless the dialect stores it more
    /// compactly (PostgreSQL leaves `name$cd` null where it equals `name$c`, and reads
    /// `COALESCE(t."name$cd", t."name$c")`, which its index holds too). A default in an extension.
    func derivedColumnExpression(_ derived: DerivedColumn, field: String, alias: String) -> String
    /// The expression whose value is a field's stored form (``StoredValueEncoding``) in the row of
    /// the table aliased `alias`: its column, unless the dialect stores it more compactly
    /// (PostgreSQL keeps a location without altitude in its two number columns only). A default
    /// in an extension.
    func storedValueExpression(field: FieldSchema, alias: String) -> String
    /// The expression whose value is a metadata field's stored form in the row of the table
    /// aliased `alias`: its column, unless the dialect stores it more compactly (PostgreSQL
    /// leaves the modification date null where it equals the creation date). A default in an
    /// extension.
    func metadataExpression(_ metadata: MetadataField, alias: String) -> String
    /// A null of the type a field of this type is read as, for a column of a `UNION ALL` whose
    /// branch has no such field: `NULL` where the database types it from the other branches
    /// (SQLite), a cast where a union of nulls would be typed as text first (PostgreSQL). A
    /// default in an extension.
    func null(readAs type: FieldType) -> String
    /// The statement that gives a commit its change position, returning it in one row: the next
    /// value of the store's counter (the one-row `$history` table, locked until the commit, so
    /// that positions grow in commit order), or what the database gives each transaction of its
    /// own (PostgreSQL's transaction IDs, read up to a bound). A default in an extension.
    ///
    /// ```swift
    /// dialect.nextChangePositionSQL   // SQLite: UPDATE "$history" SET position = position + 1 WHERE id = 1 RETURNING position
    ///                                // PostgreSQL: SELECT ((SELECT xidBase FROM "$history" WHERE id = 1) + txid_current())
    /// ```
    var nextChangePositionSQL: String { get }
}

extension SQLDialect {
    /// An `ORDER BY` term in the store's null order (nil first ascending, last descending):
    /// `x ASC` where that is the database's default, else with `NULLS FIRST`/`NULLS LAST`. A
    /// dialect whose database lacks `NULLS FIRST` writes its own.
    @_spi(StorageEngine) public func orderTerm(_ expression: String, ascending: Bool) -> String {
        let direction = ascending ? "ASC" : "DESC"
        if sortsNullsFirstAscending { return "\(expression) \(direction)" }
        return "\(expression) \(direction) \(ascending ? "NULLS FIRST" : "NULLS LAST")"
    }

    /// The `ORDER BY` term of an order key (``SQLPlanner/orderKeys(_:)``), or of the column at
    /// `position` of a union's selection that holds it. The record name is never null: a plain
    /// `ASC`, which the indexes' last column (and the unique (zone, record name) index) serve as
    /// they are on every database. With PostgreSQL's `NULLS FIRST` spelled out, no index matched
    /// and every page sorted the whole table.
    ///
    /// ```swift
    /// dialect.orderTerm(OrderKey(sql: "t.\"age\"", arguments: [], ascending: false, isRecordName: false))   // t."age" DESC
    /// dialect.orderTerm(key, position: 2)   // 2 DESC
    /// ```
    @_spi(StorageEngine) public func orderTerm(_ key: OrderKey, position: Int? = nil) -> String {
        let expression = position.map(String.init) ?? key.sql
        return key.isRecordName ? expression + " ASC" : orderTerm(expression, ascending: key.ascending)
    }

    /// The clause that pages a select, taking two arguments: the limit (``unlimited`` for none),
    /// then the offset. A dialect whose database spells it otherwise writes its own.
    @_spi(StorageEngine) public var limitAndOffsetClause: String { "LIMIT ? OFFSET ?" }

    /// The paging clause (``limitAndOffsetClause``) with its arguments: the limit (``unlimited``
    /// for nil), then the offset.
    ///
    /// ```swift
    /// dialect.paging(limit: 10, offset: 20)   // ("LIMIT ? OFFSET ?", [10, 20])
    /// ```
    @_spi(StorageEngine) public func paging(limit: Int?, offset: Int) -> (sql: String, arguments: [SQLValue]) {
        (limitAndOffsetClause, [limit.map { .integer(Int64(max(0, $0))) } ?? unlimited, .integer(Int64(max(0, offset)))])
    }

    /// The derived column itself: `t."name$cd"`.
    @_spi(StorageEngine) public func derivedColumnExpression(_ derived: DerivedColumn, field: String, alias: String) -> String {
        "\(alias).\(quote(TableLayout.derivedColumn(field, derived)))"
    }

    /// No JSON reading: a test of a list's members without a list table is the residual's.
    @_spi(StorageEngine) public func jsonArrayMembers(_ expression: String, elementType: FieldType) -> String? { nil }

    /// The field's column itself: `t."location"`.
    @_spi(StorageEngine) public func storedValueExpression(field: FieldSchema, alias: String) -> String {
        "\(alias).\(quote(field.name))"
    }

    /// The metadata field's column itself: `t."$modificationDate"`.
    @_spi(StorageEngine) public func metadataExpression(_ metadata: MetadataField, alias: String) -> String {
        "\(alias).\(quote(TableLayout.column(metadata)))"
    }

    /// A plain `NULL`, which the database types from the union's other branches.
    @_spi(StorageEngine) public func null(readAs type: FieldType) -> String { "NULL" }

    /// The store's counter, one up.
    @_spi(StorageEngine) public var nextChangePositionSQL: String {
        "UPDATE \(quote(TableLayout.historyTable)) SET position = position + 1 WHERE id = 1 RETURNING position"
    }

    /// A string column in code-point order.
    @_spi(StorageEngine) public func codePointOrder(_ expression: String) -> String {
        stringOrder(expression, comparison: .compare) ?? expression
    }
}

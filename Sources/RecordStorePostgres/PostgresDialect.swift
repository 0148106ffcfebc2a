// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// PostgreSQL: double-quoted identifiers, `$1, $2, ...` placeholders, `TRUE`/`FALSE`, nulls
/// placed explicitly (PostgreSQL puts them last ascending; the store puts them first), and
/// code-point string order through `COLLATE "C"` (every text column is declared so too, so the
/// indexes serve that order whatever the database's default collation).
///
/// PostgreSQL cannot call back into Swift: comparisons the evaluator alone decides (`MATCHES`,
/// `[d]` alone, `LIKE` without a literal prefix, ...) go to the residual predicate, localized
/// sorts read the stored ICU sort keys (``DerivedColumn``), and distances are checked in Swift
/// after the SP-GiST index of points narrowed the rows to a box.
///
/// ```swift
/// let dialect = PostgresDialect()
/// dialect.numberPlaceholders("a = ? AND b = ?")                  // a = $1 AND b = $2
/// dialect.stringOrder("t.\"name\"", comparison: .compare)        // t."name" COLLATE "C"
/// ```
struct PostgresDialect: SQLDialect {
    var name: String { "postgres" }

    func quote(_ identifier: String) -> String {
        Self.quote(identifier)
    }

    /// A double-quoted identifier, inner quotes doubled; a name longer than PostgreSQL's 63
    /// bytes is shortened to a prefix and a hash of the whole (``PostgresLayout/identifier(_:)``).
    static func quote(_ identifier: String) -> String {
        let name = PostgresLayout.identifier(identifier)
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Turns each `?` outside quotes into `$n`. The planner writes `?` only as placeholders;
    /// string literals and quoted identifiers it writes never hold one, but are skipped anyway.
    func numberPlaceholders(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        // Byte by byte: quotes and `?` are ASCII, and every statement passes through here.
        var result: [UInt8] = []
        result.reserveCapacity(sql.utf8.count + 64)
        var number = 0
        var quote: UInt8?
        for byte in sql.utf8 {
            if let open = quote {
                if byte == open { quote = nil }
                result.append(byte)
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
                result.append(byte)
            } else if byte == UInt8(ascii: "?") {
                number += 1
                result.append(UInt8(ascii: "$"))
                result.append(contentsOf: String(number).utf8)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    var rowIdentifier: String { Self.quote(PostgresLayout.rowColumn) }
    var seeksListedValuesInOwnSubquery: Bool { false }

    func literal(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    var sortsNullsFirstAscending: Bool { false }

    /// PostgreSQL's text cannot hold a NUL character: a plan binding one is run as a scan.
    func bindsExactly(_ value: SQLValue) -> Bool {
        if case .text(let text) = value { return !text.utf8.contains(0) }
        return true
    }

    func stringOrder(_ expression: String, comparison: SortComparison) -> String? {
        comparison == .compare ? "\(expression) COLLATE \"C\"" : nil
    }

    func comparisonTest(_ predicate: FormatPredicate, typeCode: Int, value: String) throws(RecordStoreError) -> SQLCondition? {
        nil
    }

    func distance(latitude: String, longitude: String) -> String? {
        nil
    }

    /// The message and the value as an integer, which fails (22P02, the text in the message); a
    /// constant would fail when PostgreSQL folds it, before any row is read.
    func refusal(depending expression: String) -> String? {
        "CAST(? || CAST(\(expression) AS text) AS integer) = 0"
    }

    func containsCondition(_ expression: String) -> String {
        "strpos(\(expression), ?) > 0"
    }

    func patternCondition(_ expression: String, pattern: LikePattern) -> SQLCondition {
        // LIKE on a `COLLATE "C"` column compares code points, and the database's encoding is
        // UTF-8, so `_` is one code point; `\` (LIKE's default escape) makes `%`, `_` and `\` literal.
        let like = pattern.translated(anyRun: "%", anyOne: "_") { scalar in
            switch scalar {
            case "%", "_", "\\": "\\\(scalar)"
            default: String(scalar)
            }
        }
        return .exact("\(expression) LIKE ?", [.text(like)])
    }

    func endsWithCondition(_ expression: String) -> String {
        // right(x, n) counts characters, and the database's encoding is UTF-8: code points.
        "right(\(expression), ?::integer) = ?"
    }

    var unlimited: SQLValue { .null }

    func booleanAsNumber(_ expression: String) -> String {
        "(\(expression))::integer"
    }

    func listMembers(recordType: String, field: String) -> (table: String, sharedByFields: Bool) {
        (quote(PostgresLayout.listTable(recordType, field: field)), false)
    }

    /// `json_array_elements_text` over the list's JSON text, each member read as its column
    /// would hold it: a string in NFC compared by its bytes (`COLLATE "C"`), an integer as
    /// `bigint`, a double as `double precision` (JSON's `"NaN"` and `"Infinity"` included).
    /// The `json` type, not `jsonb`, so that numbers are not read into `numeric` first.
    func jsonArrayMembers(_ expression: String, elementType: FieldType) -> String? {
        let member: String? = switch elementType {
        case .string: #"normalize(m.value, NFC) COLLATE "C""#
        case .int64: "(m.value)::bigint"
        case .double: "(m.value)::double precision"
        default: nil
        }
        guard let member else { return nil }
        return "(SELECT \(member) AS value FROM json_array_elements_text((\(expression))::json) AS m)"
    }

    func fullTextCondition(recordType: String, alias: String) -> String {
        "\(alias).\(quote(PostgresLayout.fullTextColumn)) @@ ?::tsquery"
    }

    /// The words as a `tsquery` matching a row with one of each group (``PostgresFullText``),
    /// bound as text and cast; nil for a word too long for the index.
    func fullTextQuery(allOf groups: [[String]]) -> String? {
        PostgresFullText.queryLiteral(allOf: groups)
    }

    func derivedColumnExpression(_ derived: DerivedColumn, field: String, alias: String) -> String {
        PostgresLayout.foldedExpression(derived, field: field, alias: alias)
    }

    func metadataExpression(_ metadata: MetadataField, alias: String) -> String {
        metadata == .modificationDate
            ? PostgresLayout.modificationDateExpression(alias: alias)
            : "\(alias).\(quote(TableLayout.column(metadata)))"
    }

    /// A null cast to the field's column type (its collation kept), which a union's other
    /// branches match: PostgreSQL types a union of two untyped nulls as text before it sees the
    /// branch with the field.
    func null(readAs type: FieldType) -> String {
        let columnType = PostgresLayout.columnType(type)
        let cast = "CAST(NULL AS \(PostgresLayout.castType(columnType)))"
        return columnType == PostgresLayout.castType(columnType) ? cast : "\(cast) COLLATE \"C\""
    }

    /// The transaction's own position, with no lock: its ID plus the store's base
    /// (``PostgresChangePositions``). The transaction registered as a writer before its first write.
    var nextChangePositionSQL: String {
        "SELECT \(PostgresChangePositions.positionExpression)"
    }

    func storedValueExpression(field: FieldSchema, alias: String) -> String {
        field.type == .location
            ? PostgresLayout.locationReadExpression(field: field.name, alias: alias)
            : "\(alias).\(quote(field.name))"
    }

    /// A `text[]` literal: every element double-quoted, `"` and `\` escaped.
    static func arrayLiteral(_ elements: [String]) -> String {
        "{" + elements.map { element in
            var escaped = "\""
            for character in element {
                if character == "\"" || character == "\\" { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped + "\""
        }.joined(separator: ",") + "}"
    }

    func boundingBoxCondition(
        recordType: String, field: String, alias: String, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>
    ) -> SQLCondition {
        // The SP-GiST index is on point(latitude, longitude) (PostgresLayout.pointExpression).
        .superset(
            "\(PostgresLayout.pointExpression(field: field, alias: alias)) <@ box(point(?, ?), point(?, ?))",
            [.real(latitudes.lowerBound), .real(longitudes.lowerBound), .real(latitudes.upperBound), .real(longitudes.upperBound)])
    }
}
#endif

import PredicateLanguage
import RecordStoreCore

/// How the SQL engines keep the exact string a client saved while comparing its NFC form.
///
/// A string field's own column holds the string in NFC (``StoredValueEncoding``), which every
/// comparison, range, index and sort reads, so SQL decides exactly what the evaluator decides on
/// canonically equivalent spellings. When the client's spelling differs from its NFC form (bytes
/// differ: `"Ba\u{300}mak…"` rather than `"Bàmak…"`), the spelling is also written to the
/// field's spelling column (`name$raw`, no index); otherwise that column is null, which costs a
/// byte or less per row. A record is read back as `COALESCE(name$raw, name)`: the bytes the
/// client stored. Lists keep their members' spellings in the row's JSON; the list table holds
/// the NFC forms the list operators compare.
///
/// Stores written before the column existed (every string in NFC) read back unchanged: the
/// column is added, null, when they open.
///
/// ```swift
/// StoredSpelling.value(of: .string("Sa\u{303}o"))   // .text("Sa\u{303}o")
/// StoredSpelling.value(of: .string("São"))          // .null (the NFC column holds it)
/// StoredSpelling.readExpression(field: FieldSchema(name: "name", type: .string), alias: "t", dialect: dialect)
/// // COALESCE(t."name$raw", t."name")
/// ```
@_spi(StorageEngine) public enum StoredSpelling {
    /// Whether a field has a spelling column: scalar string fields.
    @_spi(StorageEngine) public static func hasColumn(_ field: FieldSchema) -> Bool {
        field.type == .string
    }

    /// The spelling column's value for a field value: the string when its UTF-8 bytes differ
    /// from its NFC form's, null otherwise (and for anything that is not a string).
    @_spi(StorageEngine) public static func value(of fieldValue: Value) -> SQLValue {
        value(of: fieldValue, stored: StoredValueEncoding.encode(fieldValue))
    }

    /// The spelling column's value for a field value whose stored form
    /// (``StoredValueEncoding/encode(_:)``, the string in NFC) is already at hand, so that a
    /// writer puts each string in NFC once.
    ///
    /// ```swift
    /// let value = Value.string("Sa\u{303}o")
    /// StoredSpelling.value(of: value, stored: StoredValueEncoding.encode(value))   // .text("Sa\u{303}o")
    /// ```
    @_spi(StorageEngine) public static func value(of fieldValue: Value, stored: SQLValue) -> SQLValue {
        guard case .string(let string) = fieldValue, case .text(let normalized) = stored else { return .null }
        return sameBytes(string, normalized) ? .null : .text(string)
    }

    /// Whether two strings have the same UTF-8 bytes (not merely canonically equivalent), compared
    /// a buffer at a time.
    static func sameBytes(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        var (first, second) = (first, second)
        return first.withUTF8 { firstBytes in second.withUTF8 { secondBytes in firstBytes.elementsEqual(secondBytes) } }
    }

    /// The expression that reads a field as the client stored it: `COALESCE(spelling, field)`
    /// for string fields, the column itself for others. `alias` names the record table.
    @_spi(StorageEngine) public static func readExpression(field: FieldSchema, alias: String, dialect: any SQLDialect) -> String {
        let stored = dialect.storedValueExpression(field: field, alias: alias)
        guard hasColumn(field) else { return stored }
        return "COALESCE(\(alias).\(dialect.quote(TableLayout.spellingColumn(field.name))), \(stored))"
    }
}

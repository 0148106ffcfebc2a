// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The names of what the PostgreSQL engine stores beside ``TableLayout``'s tables and columns,
/// and how each field type is declared.
///
/// A record type `City` is the table `City`: the metadata columns (`$zone`, `$recordName`, the
/// dates as seconds since 2001, the modification date null when it is the creation date,
/// `$recordChangeTag`), `$row` (an identity the side tables refer
/// to), a typed column per field (strings in NFC, with the client's other spelling in
/// `name$raw`, ``StoredSpelling``), the ``DerivedColumn``s of string fields (`name$cd` null where
/// it equals `name$c`, ``foldedExpression(_:field:alias:)``), `$fullText` (the words of its
/// searchable fields, a `tsvector` with a GIN index, ``PostgresFullText``) and, per location
/// field, its latitude and longitude with an SP-GiST index on their point (the field's own text
/// column holds only what they cannot: an altitude, ``locationReadExpression(field:alias:)``). Each list field has a side table
/// `City$list$field` (`record`, `position`, `value` typed as the members, and the folded forms
/// of string members), indexed by value for the list operators.
///
/// ```swift
/// PostgresLayout.listTable("City", field: "aliases")   // "City$list$aliases"
/// PostgresLayout.columnType(.double)                   // "double precision"
/// ```
enum PostgresLayout {
    /// The identity column of a record table, which list tables refer to.
    static let rowColumn = "$row"
    /// The full-text words of a record (``FullTextTokenizer``), a `tsvector` (``PostgresFullText``).
    static let fullTextColumn = "$fullText"
    /// The store's metadata (`name`, `value`): its identifier, cursor key and collation version.
    static let metadataTable = "$metadata"
    /// The backends listening for the store's commits (``PostgresChangeNotifications``): writers
    /// send their notifications only while a row names a zone they changed.
    static let listenersTable = "$listeners"
    /// The listeners' table: a backend's `pid`, and the zones it listens for (``ObservedZones``):
    /// `zones` by name, null for every zone (the default, which is what a row of a version that
    /// named no zones means), and `prefixes`.
    static let listenersTableDefinition = """
        CREATE TABLE IF NOT EXISTS \(PostgresDialect.quote(listenersTable)) (pid integer PRIMARY KEY, since timestamptz NOT NULL DEFAULT now(),
            zones text[] COLLATE "C", prefixes text[] COLLATE "C" NOT NULL DEFAULT '{}')
        """
    /// PostgreSQL's longest identifier, in bytes.
    static let identifierLimit = 63

    /// The side table of a list field.
    static func listTable(_ recordType: String, field: String) -> String { "\(recordType)$list$\(field)" }

    /// The index of a list table's members by one of its columns.
    static func listIndex(_ recordType: String, field: String, column: String) -> String { "\(recordType)$list$\(field)$\(column)$index" }

    /// The index of the full-text tokens.
    static func fullTextIndex(_ recordType: String) -> String { "\(recordType)$fullText$index" }

    /// The SP-GiST index of a location field.
    static func locationIndex(_ recordType: String, field: String) -> String { "\(recordType)$\(field)$location$index" }

    /// The point a location field's SP-GiST index holds: `point(latitude, longitude)`.
    static func pointExpression(field: String, alias: String?) -> String {
        let prefix = alias.map { "\($0)." } ?? ""
        return "point(\(prefix)\(PostgresDialect.quote(TableLayout.latitudeColumn(field))), \(prefix)\(PostgresDialect.quote(TableLayout.longitudeColumn(field))))"
    }

    /// The expression a derived column's value is read and indexed as: the column itself, but
    /// for `[cd]`, `COALESCE("name$cd", "name$c")`. A string whose case-and-diacritic folding
    /// equals its case folding (most text, and all of ASCII) stores `name$cd` null
    /// (``storedForm(of:_:caseFolded:)``), which saves cities1000 5 MB; its index is on the same
    /// expression, so `[cd]` comparisons still seek it. A field with `name$cd` always has `name$c`
    /// (``DerivedColumn/columns(for:)``).
    ///
    /// ```swift
    /// PostgresLayout.foldedExpression(.caseAndDiacriticFolded, field: "name", alias: "t")
    /// // COALESCE(t."name$cd", t."name$c")
    /// ```
    static func foldedExpression(_ derived: DerivedColumn, field: String, alias: String?) -> String {
        let prefix = alias.map { "\($0)." } ?? ""
        let own = prefix + PostgresDialect.quote(TableLayout.derivedColumn(field, derived))
        guard derived == .caseAndDiacriticFolded else { return own }
        return "COALESCE(\(own), \(prefix)\(PostgresDialect.quote(TableLayout.derivedColumn(field, .caseFolded))))"
    }

    /// What a derived column stores for a value whose derived forms are computed: null for the
    /// `[cd]` form when it equals the `[c]` form (``foldedExpression(_:field:alias:)``).
    static func storedForm(of value: SQLValue, _ derived: DerivedColumn, caseFolded: SQLValue) -> SQLValue {
        derived == .caseAndDiacriticFolded && value == caseFolded ? .null : value
    }

    /// The expression a location field is read as: its text column when that holds the location
    /// (one with an altitude), else its latitude and longitude in the exact bit-pattern form
    /// (``StoredValueEncoding/bitPatternLocationPrefix``). A location without altitude, nearly
    /// all of them, stores an empty string in its text column (non-null, so `location != nil`
    /// still reads the one column): cities1000 saves 3 MB, and no number is printed and parsed
    /// back, so no setting of the server's (`extra_float_digits`) can round it.
    static func locationReadExpression(field: String, alias: String) -> String {
        let text = "\(alias).\(PostgresDialect.quote(field))"
        let latitude = "\(alias).\(PostgresDialect.quote(TableLayout.latitudeColumn(field)))"
        let longitude = "\(alias).\(PostgresDialect.quote(TableLayout.longitudeColumn(field)))"
        return "CASE WHEN \(text) = '' THEN '\(StoredValueEncoding.bitPatternLocationPrefix)' || encode(float8send(\(latitude)), 'hex') "
            + "|| encode(float8send(\(longitude)), 'hex') ELSE \(text) END"
    }

    /// What `$modificationDate` stores: null when the record was last modified when it was
    /// created (every record a save or an import creates), which saves cities1000 1.4 MB; NaN
    /// (which no date is) when it has a creation date but no modification date; the date
    /// otherwise. ``modificationDateExpression(alias:)`` reads it back.
    static func storedModificationDate(creation: Date?, modification: Date?) -> SQLValue {
        switch (creation, modification) {
        case (.some, nil): .real(.nan)
        case (let created?, let modified?) where created == modified: .null
        default: modification.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
        }
    }

    /// The expression the modification date is read and compared as (``storedModificationDate(creation:modification:)``).
    static func modificationDateExpression(alias: String) -> String {
        let modified = "\(alias).\(PostgresDialect.quote(TableLayout.modificationDateColumn))"
        return "(CASE WHEN \(modified) IS NULL THEN \(alias).\(PostgresDialect.quote(TableLayout.creationDateColumn)) "
            + "WHEN \(modified) = 'NaN' THEN NULL ELSE \(modified) END)"
    }

    /// The column type of a field: typed scalars; dates as seconds since 2001 in `double
    /// precision` (exact for every `Date`, which `timestamptz`'s microseconds are not);
    /// locations and references in their text forms; lists whole as typed JSON text (their
    /// members are in the list table).
    static func columnType(_ type: FieldType) -> String {
        switch type {
        case .string, .location, .reference, .list: "text COLLATE \"C\""
        case .int64: "bigint"
        case .double, .date: "double precision"
        case .bool: "boolean"
        case .bytes: "bytea"
        }
    }

    /// A column type as a cast names it: without its collation (`text COLLATE "C"` is cast as `text`).
    static func castType(_ columnType: String) -> String {
        columnType.replacingOccurrences(of: " COLLATE \"C\"", with: "")
    }

    /// The type of a derived column: folded text, or a sort key's bytes.
    static func columnType(_ derived: DerivedColumn) -> String {
        derived.isSortKey ? "bytea" : "text COLLATE \"C\""
    }

    /// A name PostgreSQL keeps whole: names longer than 63 bytes become their first 46 bytes,
    /// `$`, and 16 hexadecimal digits of a hash of the whole name (FNV-1a), so two long names
    /// sharing a prefix stay apart.
    static func identifier(_ name: String) -> String {
        guard name.utf8.count > identifierLimit else { return name }
        let hash = stableHash(name)
        var prefix = ""
        for character in name {
            if prefix.utf8.count + character.utf8.count > 46 { break }
            prefix.append(character)
        }
        let digits = String(hash, radix: 16)
        return prefix + "$" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// FNV-1a of a text's UTF-8: the same on every machine and every run (Swift's `Hasher` is not).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
#endif

import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// A column the SQL engines compute from a string field when they write a record, so that
/// comparisons and sorts the database cannot do natively become index seeks with exactly the
/// evaluator's meaning:
///
/// - ``caseFolded`` and ``caseAndDiacriticFolded``: the field folded as `[c]` and `[cd]` fold it
///   (``TextFolding``, the evaluator's own function, in NFC). `name ==[cd] "sao paulo"` is then
///   an equality on `name$cd`, `name BEGINSWITH[c] "san"` a byte range on `name$c`, both exact.
/// - ``localizedKey``, ``localizedCaseInsensitiveKey``, ``localizedStandardKey``: the
///   ``UnicodeCollation`` sort key of the field (ICU's key, then the UTF-8 bytes), whose byte
///   order is the localized sort's order: `ORDER BY name$localized` sorts as
///   ``SortComparison/localized`` does, and keyset paging seeks its index.
///
/// Queryable string fields get the folded columns; sortable string fields get the folded case
/// column (for ``SortComparison/caseInsensitive``) and the three keys. Each column has an index
/// `(zone, column)`, as the field itself has. Members of string lists have their folded forms
/// in the list table (``memberColumns(for:)``), indexed `(field, column, record)`.
///
/// ```swift
/// DerivedColumn.caseAndDiacriticFolded.value(of: "São Paulo")   // .text("sao paulo")
/// DerivedColumn.columns(for: FieldSchema(name: "name", type: .string))   // all five
/// TableLayout.derivedColumn("name", .caseFolded)   // "name$c"
/// ```
@_spi(StorageEngine) public enum DerivedColumn: String, CaseIterable, Sendable {
    /// `[c]` folding: `"Straße"` → `"strasse"`.
    case caseFolded = "c"
    /// `[cd]` folding: `"São Paulo"` → `"sao paulo"`.
    case caseAndDiacriticFolded = "cd"
    /// The sort key of ``SortComparison/localized``.
    case localizedKey = "localized"
    /// The sort key of ``SortComparison/localizedCaseInsensitive``.
    case localizedCaseInsensitiveKey = "localizedCaseInsensitive"
    /// The sort key of ``SortComparison/localizedStandard``.
    case localizedStandardKey = "localizedStandard"

    /// The derived columns a field has, in this order; none for fields that are not strings.
    @_spi(StorageEngine) public static func columns(for field: FieldSchema) -> [DerivedColumn] {
        guard field.type == .string else { return [] }
        return allCases.filter { column in
            switch column {
            case .caseFolded: field.isQueryable || field.isSortable
            case .caseAndDiacriticFolded: field.isQueryable
            case .localizedKey, .localizedCaseInsensitiveKey, .localizedStandardKey: field.isSortable
            }
        }
    }

    /// The derived columns of a list's members in the list table (`value$c`, `value$cd`): the
    /// folded forms, for lists of strings.
    @_spi(StorageEngine) public static func memberColumns(for field: FieldSchema) -> [DerivedColumn] {
        field.type.elementType == .string ? memberForms : []
    }

    /// The forms every string list member has in the list table, in column order.
    @_spi(StorageEngine) public static let memberForms: [DerivedColumn] = [.caseFolded, .caseAndDiacriticFolded]

    /// The folded column that decides comparisons with these options, or nil: `[c]` and `[cd]`
    /// only (`[d]` alone, `[n]` and `[l]` have none).
    @_spi(StorageEngine) public static func folded(for options: ComparisonOptions) -> DerivedColumn? {
        switch options {
        case .caseInsensitive: .caseFolded
        case [.caseInsensitive, .diacriticInsensitive]: .caseAndDiacriticFolded
        default: nil
        }
    }

    /// The column whose byte order is this sort comparison's order, or nil (code-point order
    /// needs none: the field itself sorts so).
    @_spi(StorageEngine) public static func sortColumn(for comparison: SortComparison) -> DerivedColumn? {
        switch comparison {
        case .compare: nil
        case .caseInsensitive: .caseFolded
        case .localized: .localizedKey
        case .localizedCaseInsensitive: .localizedCaseInsensitiveKey
        case .localizedStandard: .localizedStandardKey
        }
    }

    /// Whether the column holds a collation sort key (which changes with ICU's version).
    @_spi(StorageEngine) public var isSortKey: Bool {
        switch self {
        case .caseFolded, .caseAndDiacriticFolded: false
        case .localizedKey, .localizedCaseInsensitiveKey, .localizedStandardKey: true
        }
    }

    /// The column's value for a string: folded text, or a sort key as bytes.
    @_spi(StorageEngine) public func value(of string: String) -> SQLValue {
        switch self {
        case .caseFolded: .text(TextFolding.fold(string, options: .caseInsensitive))
        case .caseAndDiacriticFolded: .text(TextFolding.fold(string, options: [.caseInsensitive, .diacriticInsensitive]))
        case .localizedKey: .blob(Data(UnicodeCollation.localized.sortKey(string)))
        case .localizedCaseInsensitiveKey: .blob(Data(UnicodeCollation.localizedCaseInsensitive.sortKey(string)))
        case .localizedStandardKey: .blob(Data(UnicodeCollation.localizedStandard.sortKey(string)))
        }
    }

    /// The column's value for a field value: derived from a string, null otherwise.
    @_spi(StorageEngine) public func value(of fieldValue: Value) -> SQLValue {
        guard case .string(let string) = fieldValue else { return .null }
        return value(of: string)
    }
}

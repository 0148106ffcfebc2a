import Foundation
import PredicateLanguage

/// How a sort compares strings (other values compare by value).
///
/// ```swift
/// Sort("name", comparison: .localizedStandard)   // "Item 2" before "Item 10"
/// ```
public enum SortComparison: String, Sendable, Hashable, Codable, CaseIterable {
    /// Unicode code points (the order of UTF-8 bytes).
    case compare
    /// Code points after case folding.
    case caseInsensitive
    /// The locale's collation (`localizedCompare`).
    case localized
    /// The locale's collation, ignoring case (`localizedCaseInsensitiveCompare`).
    case localizedCaseInsensitive
    /// Finder-like order: numbers inside strings compare numerically (`localizedStandardCompare`).
    case localizedStandard

    /// Compares two strings the way this comparison sorts them.
    ///
    /// ```swift
    /// SortComparison.localizedStandard.compare("Item 2", "Item 10")   // .orderedAscending
    /// ```
    public func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        switch self {
        case .compare:
            return Self.compareBytes(lhs, rhs)
        case .caseInsensitive:
            return Self.compareBytes(
                TextFolding.fold(lhs, options: .caseInsensitive), TextFolding.fold(rhs, options: .caseInsensitive))
        case .localized:
            return Self.printableASCII?.compare(lhs, rhs, ignoringCase: false) ?? lhs.localizedCompare(rhs)
        case .localizedCaseInsensitive:
            return Self.printableASCII?.compare(lhs, rhs, ignoringCase: true) ?? lhs.localizedCaseInsensitiveCompare(rhs)
        case .localizedStandard:
            return lhs.localizedStandardCompare(rhs)
        }
    }

    /// The exact shortcut for localized comparisons of printable ASCII (nil where it does not apply).
    private static let printableASCII = PrintableASCIICollation.current

    /// Code-point order, which is the order of the UTF-8 bytes (SQLite's `BINARY`).
    static func compareBytes(_ lhs: String, _ rhs: String) -> ComparisonResult {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case (let a?, let b?):
                if a != b { return a < b ? .orderedAscending : .orderedDescending }
            }
        }
    }

    /// The name of the SQLite collation for this comparison (nil for `.compare`, which is `BINARY`).
    var collationName: String? {
        self == .compare ? nil : "query_\(rawValue)"
    }
}

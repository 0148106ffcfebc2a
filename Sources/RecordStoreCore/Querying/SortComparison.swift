import Foundation
import PredicateLanguage

/// How a sort compares strings (other values compare by value).
///
/// ```swift
/// Sort("name", comparison: .localizedStandard)   // "Item 2" before "Item 10"
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `Sort`, `SortDirection`,
/// `RecordOrdering` and `ValueOrdering`.
public enum SortComparison: String, Sendable, Hashable, Codable, CaseIterable {
    /// Unicode code points of the strings' NFC forms (the order of their UTF-8 bytes), so that
    /// canonically equivalent spellings (`"Sa\u{303}o"`, `"São"`) sort as one string.
    case compare
    /// Code points after case folding.
    case caseInsensitive
    /// The Unicode collation (`localizedCompare`): ICU's root order, a strict total order
    /// (`UnicodeCollation.localized`).
    case localized
    /// The Unicode collation, case only breaking ties (`localizedCaseInsensitiveCompare`).
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
            return Self.compareBytes(TextFolding.normalized(lhs), TextFolding.normalized(rhs))
        case .caseInsensitive:
            return Self.compareASCIIIgnoringCase(lhs, rhs)
                ?? Self.compareBytes(
                    TextFolding.fold(lhs, options: .caseInsensitive), TextFolding.fold(rhs, options: .caseInsensitive))
        case .localized:
            return UnicodeCollation.localized.compare(lhs, rhs)
        case .localizedCaseInsensitive:
            return UnicodeCollation.localizedCaseInsensitive.compare(lhs, rhs)
        case .localizedStandard:
            return UnicodeCollation.localizedStandard.compare(lhs, rhs)
        }
    }

    /// Code-point order, which is the order of the UTF-8 bytes (SQLite's `BINARY`).
    package static func compareBytes(_ lhs: String, _ rhs: String) -> ComparisonResult {
        var left = lhs
        var right = rhs
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                let common = min(leftBytes.count, rightBytes.count)
                var index = 0
                while index < common {
                    let a = leftBytes[index]
                    let b = rightBytes[index]
                    if a != b { return a < b ? .orderedAscending : .orderedDescending }
                    index += 1
                }
                if leftBytes.count == rightBytes.count { return .orderedSame }
                return leftBytes.count < rightBytes.count ? .orderedAscending : .orderedDescending
            }
        }
    }

    /// The case-insensitive order of two ASCII strings without building folded copies (ASCII
    /// folds A-Z to a-z and nothing else, as ``TextFolding`` does); nil when either is not ASCII.
    package static func compareASCIIIgnoringCase(_ lhs: String, _ rhs: String) -> ComparisonResult? {
        var left = lhs
        var right = rhs
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes -> ComparisonResult? in
                var order = ComparisonResult.orderedSame
                var index = 0
                let common = min(leftBytes.count, rightBytes.count)
                while index < common {
                    let a = leftBytes[index]
                    let b = rightBytes[index]
                    if a >= 0x80 || b >= 0x80 { return nil }
                    if order == .orderedSame {
                        let foldedA = a &- 0x41 < 26 ? a | 0x20 : a
                        let foldedB = b &- 0x41 < 26 ? b | 0x20 : b
                        if foldedA != foldedB { order = foldedA < foldedB ? .orderedAscending : .orderedDescending }
                    }
                    index += 1
                }
                // The rest of the longer string must be ASCII too, or folding might change the answer.
                let longer = leftBytes.count > rightBytes.count ? leftBytes : rightBytes
                while index < longer.count {
                    if longer[index] >= 0x80 { return nil }
                    index += 1
                }
                if order != .orderedSame || leftBytes.count == rightBytes.count { return order }
                return leftBytes.count < rightBytes.count ? .orderedAscending : .orderedDescending
            }
        }
    }
}

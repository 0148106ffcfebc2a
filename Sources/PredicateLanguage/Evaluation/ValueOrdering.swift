import Foundation

/// The order `<`, `<=`, `>`, `>=` and `BETWEEN` use: numbers by value (across
/// integer, double and boolean), strings by the Unicode code points of their NFC forms (after
/// `[c]`/`[d]` folding when asked, so canonically equivalent strings are the same), dates by time. Anything else, `nil`, or two values of
/// different kinds are incomparable.
///
/// ```swift
/// ValueOrdering.compare(.int(2), .double(2.5))                     // .orderedAscending
/// ValueOrdering.compare("Zebra", "apple")                           // .orderedAscending (Z is U+005A)
/// ValueOrdering.compare("Zebra", "apple", options: .caseInsensitive) // .orderedDescending
/// ValueOrdering.compare(nil, .int(1))                               // nil
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `RecordOrdering`, `Sort`
/// and `SortComparison`.
public enum ValueOrdering {
    /// How `a` orders against `b`, or nil when they are incomparable.
    ///
    /// ```swift
    /// ValueOrdering.compare(.int(1), .int(2))   // .orderedAscending
    /// ```
    public static func compare(_ a: Value, _ b: Value, options: ComparisonOptions = []) -> ComparisonResult? {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
        case (.string(let x), .string(let y)):
            // Folded (at least to NFC), so canonically equivalent strings are the same.
            return compareCodePoints(TextFolding.fold(x, options: options), TextFolding.fold(y, options: options))
        case (.date(let x), .date(let y)):
            return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
        default:
            return NumericComparison.compare(a, b)
        }
    }

    /// Compares two strings by their Unicode code points (UTF-8 code unit order is code point order).
    ///
    /// ```swift
    /// ValueOrdering.compareCodePoints("Z", "a")   // .orderedAscending
    /// ```
    public static func compareCodePoints(_ a: String, _ b: String) -> ComparisonResult {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case (let x?, let y?):
                if x < y { return .orderedAscending }
                if x > y { return .orderedDescending }
            }
        }
    }
}

import CFoundationICU
import Foundation
import _FoundationICU
import PredicateLanguage

/// The localized string orders of ``SortComparison``, from ICU's root collation (the Unicode
/// Collation Algorithm with CLDR's root order), as strict total orders: two strings that are not
/// canonically equivalent never compare equal, because a tie under the collation is broken by the
/// code points of their NFC forms (canonically equivalent spellings are one string, as everywhere).
///
/// Foundation's `localizedCompare` on Linux is not transitive ("Hoàng Mai" < "Hong Kong" <
/// "Hồng Lĩnh" < "Hoàng Mai"), so a sort's output depended on the comparisons the algorithm made.
/// ICU's collation is a total order; every engine uses this one (the memory engine, Swift-side
/// sorts, and SQLite's collation callbacks), so a localized sort gives one sequence everywhere.
///
/// - ``localized``: base letters first, then accents, then case (`a` < `A` < `á` < `b`).
/// - ``localizedCaseInsensitive``: base letters, then accents; case only breaks ties.
/// - ``localizedStandard``: as ``localized``, with digit runs compared as numbers
///   (`File 2` < `File 10`), as Finder's `localizedStandardCompare`.
///
/// The ICU is the toolchain's own copy (`_FoundationICU`), so nothing beyond Swift is needed.
///
/// ```swift
/// UnicodeCollation.localizedStandard.compare("File 2", "File 10")   // .orderedAscending
/// UnicodeCollation.localized.compare("resume", "résumé")            // .orderedAscending
/// ```
@_spi(StorageEngine) public final class UnicodeCollation: @unchecked Sendable {
    // An ICU collator is only read after it is configured here; ICU allows comparisons and sort
    // keys on one collator from several threads at once.
    private let collator: OpaquePointer?

    /// The root collation: accents and case are secondary and tertiary differences.
    @_spi(StorageEngine) public static let localized = UnicodeCollation(strength: UCOL_TERTIARY, numeric: false)
    /// The root collation without case differences (which then only break ties).
    @_spi(StorageEngine) public static let localizedCaseInsensitive = UnicodeCollation(strength: UCOL_SECONDARY, numeric: false)
    /// The root collation with numbers inside strings compared by value.
    @_spi(StorageEngine) public static let localizedStandard = UnicodeCollation(strength: UCOL_TERTIARY, numeric: true)

    private init(strength: UColAttributeValue, numeric: Bool) {
        var status = U_ZERO_ERROR
        let opened = swift_ucol_open("", &status)
        guard let opened, status.rawValue <= U_ZERO_ERROR.rawValue else {
            // Without ICU's data nothing can collate; code-point order is the fallback.
            if let opened { swift_ucol_close(opened) }
            collator = nil
            return
        }
        swift_ucol_setAttribute(opened, UCOL_STRENGTH, strength, &status)
        swift_ucol_setAttribute(opened, UCOL_NUMERIC_COLLATION, numeric ? UCOL_ON : UCOL_OFF, &status)
        // Canonically equivalent strings (composed and decomposed accents) collate alike.
        swift_ucol_setAttribute(opened, UCOL_NORMALIZATION_MODE, UCOL_ON, &status)
        collator = opened
    }

    /// The version of ICU's root collation (`ucol_getVersion`, as `a.b.c.d`): stored sort keys
    /// are valid only for the version that made them.
    @_spi(StorageEngine) public static let version: String = {
        guard let collator = localized.collator else { return "code-points" }
        var info: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &info) { bytes in
            swift_ucol_getVersion(collator, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        return "\(info.0).\(info.1).\(info.2).\(info.3)"
    }()

    deinit {
        if let collator { swift_ucol_close(collator) }
    }

    /// The order of two strings: the collation's, then the code points of their NFC forms for
    /// strings it finds equal (so canonically equivalent spellings are equal).
    @_spi(StorageEngine) public func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        guard let collator else { return SortComparison.compare.compare(lhs, rhs) }
        var left = lhs
        var right = rhs
        let order = left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                var status = U_ZERO_ERROR
                return leftBytes.withMemoryRebound(to: CChar.self) { leftChars in
                    rightBytes.withMemoryRebound(to: CChar.self) { rightChars in
                        swift_ucol_strcollUTF8(
                            collator, leftChars.baseAddress, Int32(clamping: leftChars.count),
                            rightChars.baseAddress, Int32(clamping: rightChars.count), &status)
                    }
                }
            }
        }
        switch order {
        case UCOL_LESS: return .orderedAscending
        case UCOL_GREATER: return .orderedDescending
        default: return SortComparison.compare.compare(lhs, rhs)
        }
    }

    /// The collation's sort key of a string, followed by the UTF-8 bytes of its NFC form (the same
    /// key for canonically equivalent spellings): comparing two such keys
    /// byte by byte gives ``compare(_:_:)``'s order, so the keys can be stored and indexed.
    ///
    /// ```swift
    /// let keys = names.map(UnicodeCollation.localized.sortKey)   // sort by keys: memcmp order
    /// ```
    @_spi(StorageEngine) public func sortKey(_ string: String) -> [UInt8] {
        guard let collator else { return Array(TextFolding.normalized(string).utf8) }
        let units = Array(string.utf16)
        // One buffer for the key and the UTF-8 bytes after it; grown once if ICU needs more.
        var capacity = max(32, units.count * 4)
        var key: [UInt8] = []
        while true {
            key = [UInt8](repeating: 0, count: capacity)
            let length = units.withUnsafeBufferPointer { source in
                key.withUnsafeMutableBufferPointer { target in
                    Int(swift_ucol_getSortKey(collator, source.baseAddress, Int32(clamping: source.count), target.baseAddress, Int32(clamping: capacity)))
                }
            }
            if length <= capacity {
                // The key ends with a zero byte that no other key byte equals: a key that is a
                // prefix of another sorts first, and the UTF-8 bytes after it only break ties.
                key.removeLast(capacity - length)
                break
            }
            capacity = length
        }
        key.append(contentsOf: TextFolding.normalized(string).utf8)
        return key
    }
}

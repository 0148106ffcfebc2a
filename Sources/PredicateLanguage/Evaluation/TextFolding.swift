import Foundation

/// The `[c]` and `[d]` string folding of the predicate language, shared by the
/// evaluator and the SQL engines so that every engine folds the same way.
///
/// Folding is Foundation's `folding(options:locale: nil)` with
/// `.caseInsensitive` for `[c]` and `.diacriticInsensitive` for `[d]`
/// (`"straße"` folds to `"strasse"` under `[c]`; `"Ärger"` to `"arger"` under `[cd]`),
/// in Unicode normalization form C. Without `[c]` or `[d]` a string is only put in NFC: as
/// `NSString` does for every non-literal comparison, canonically equivalent strings (`"Sa\u{303}o"`
/// and `"São"`) compare equal under every operator. Canonically equivalent strings fold to the
/// same bytes, so the SQL engines can store the folded form in an indexed column and compare it
/// byte for byte (equality, prefixes, substrings, order) exactly as the evaluator compares the
/// folded strings. Pure-ASCII strings and strings below U+0300 take a fast path that gives the same result.
///
/// ```swift
/// TextFolding.fold("Ärger", options: [.caseInsensitive, .diacriticInsensitive])   // "arger"
/// TextFolding.fold("Ärger", options: .caseInsensitive)                            // "ärger"
/// ```
public enum TextFolding {
    /// The string folded as the options say, in NFC; other options (`[n]`, `[l]`) do not change it.
    ///
    /// ```swift
    /// TextFolding.fold("Straße", options: .caseInsensitive)   // "strasse"
    /// TextFolding.fold("Sa\u{303}o", options: [])             // "São" (NFC)
    /// ```
    public static func fold(_ string: String, options: ComparisonOptions) -> String {
        let caseInsensitive = options.contains(.caseInsensitive)
        let diacriticInsensitive = options.contains(.diacriticInsensitive)
        if !caseInsensitive && !diacriticInsensitive { return normalized(string) }
        if let ascii = foldASCII(string, caseInsensitive: caseInsensitive) { return ascii }
        var foundationOptions: String.CompareOptions = []
        if caseInsensitive { foundationOptions.insert(.caseInsensitive) }
        if diacriticInsensitive { foundationOptions.insert(.diacriticInsensitive) }
        return string.folding(options: foundationOptions, locale: nil).precomposedStringWithCanonicalMapping
    }

    /// The string in Unicode normalization form C: the form every string comparison compares.
    /// A string whose code points are all below U+0300 (ASCII, Latin-1, most of Latin Extended)
    /// is already in NFC (every such code point has NFC_Quick_Check=Yes) and is returned as it is,
    /// and so is one the standard library's NFC quick check knows to be in NFC (most text in
    /// other scripts); only the rest is normalized by Foundation.
    ///
    /// ```swift
    /// TextFolding.normalized("e\u{301}")   // "é" (U+00E9)
    /// ```
    @inline(__always)
    public static func normalized(_ string: String) -> String {
        // UTF-8 bytes below 0xCC are ASCII, continuation bytes and the lead bytes of U+0080...U+02FF.
        if string.utf8.allSatisfy({ $0 < 0xCC }) { return string }
        if isKnownNFC(string) { return string }
        return string.precomposedStringWithCanonicalMapping
    }

    /// Whether the standard library's quick check finds every code point NFC_Quick_Check=Yes in
    /// canonical order, so that the string is in NFC (false also means "maybe": then normalize).
    /// Sorting strings compares their NFC forms, so this spares Foundation's normalization on
    /// most comparisons of text beyond Latin (a sort of 34,006 such names: 2.1 s to 0.19 s).
    static func isKnownNFC(_ string: String) -> Bool {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            var span = string.utf8Span
            return span.checkForNFC(quickCheck: true)
        }
        return false
    }

    /// Whether folding with these options does more than put a string in NFC (``normalized(_:)``).
    ///
    /// ```swift
    /// TextFolding.folds(.normalized)   // false
    /// ```
    @inlinable
    public static func folds(_ options: ComparisonOptions) -> Bool {
        options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive)
    }

    /// The folded string when `string` is pure ASCII; nil otherwise.
    /// ASCII has no diacritics, and its case folding is A-Z to a-z.
    static func foldASCII(_ string: String, caseInsensitive: Bool) -> String? {
        var hasUpper = false
        for byte in string.utf8 {
            if byte >= 0x80 { return nil }
            if byte &- 0x41 < 26 { hasUpper = true }
        }
        if !caseInsensitive || !hasUpper { return string }
        return String(decoding: string.utf8.map { lowercaseASCII($0) }, as: UTF8.self)
    }

    /// An ASCII byte in lower case.
    @inline(__always)
    static func lowercaseASCII(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}

import Foundation

/// The `[c]` and `[d]` string folding of the predicate language, shared by the
/// evaluator and the SQL engines so that every engine folds the same way.
///
/// Folding is Foundation's `folding(options:locale: nil)` with
/// `.caseInsensitive` for `[c]` and `.diacriticInsensitive` for `[d]`
/// (`"straße"` folds to `"strasse"` under `[c]`; `"Ärger"` to `"arger"` under `[cd]`),
/// in Unicode normalization form C. Canonically equivalent strings fold to the same bytes,
/// so the SQL engines can store the folded form in an indexed column and compare it byte
/// for byte (equality, prefixes) exactly as the evaluator compares the folded strings.
/// Pure-ASCII strings take a fast path that gives the same result.
///
/// ```swift
/// TextFolding.fold("Ärger", options: [.caseInsensitive, .diacriticInsensitive])   // "arger"
/// TextFolding.fold("Ärger", options: .caseInsensitive)                            // "ärger"
/// ```
public enum TextFolding {
    /// The string folded as the options say; other options (`[n]`, `[l]`) do not change it.
    ///
    /// ```swift
    /// TextFolding.fold("Straße", options: .caseInsensitive)   // "strasse"
    /// ```
    public static func fold(_ string: String, options: ComparisonOptions) -> String {
        let caseInsensitive = options.contains(.caseInsensitive)
        let diacriticInsensitive = options.contains(.diacriticInsensitive)
        if !caseInsensitive && !diacriticInsensitive { return string }
        if let ascii = foldASCII(string, caseInsensitive: caseInsensitive) { return ascii }
        var foundationOptions: String.CompareOptions = []
        if caseInsensitive { foundationOptions.insert(.caseInsensitive) }
        if diacriticInsensitive { foundationOptions.insert(.diacriticInsensitive) }
        return string.folding(options: foundationOptions, locale: nil).precomposedStringWithCanonicalMapping
    }

    /// Whether folding with these options can change a string.
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

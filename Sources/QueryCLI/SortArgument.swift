import ArgumentParser
import RecordStore

/// The command line's form of a sort: `KEY` ascending, `-KEY` descending, and either followed by
/// `:COMPARISON` to say how strings compare, one of ``SortComparison``'s cases
/// (`--sort name:localizedStandard`, `--sort -name:caseInsensitive`).
enum SortArgument {
    /// The comparisons a `--sort` may name, as the help lists them.
    static let comparisonNames = SortComparison.allCases.map(\.rawValue).joined(separator: ", ")

    /// The sort a `--sort` text names. An unknown comparison is a usage error (`ValidationError`);
    /// an empty key is the store's `invalidSort`.
    static func sort(parsing text: String) throws -> Sort {
        let (key, comparison) = try split(text)
        var sort = try StoreOptions.failing { () throws(RecordStoreError) in try Sort(parsing: key) }
        sort.comparison = comparison
        return sort
    }

    /// The comparison a `--sort` text names (`.compare` without a suffix); throws for an unknown one.
    static func comparison(of text: String) throws -> SortComparison {
        try split(text).comparison
    }

    /// The text before the last `:` and the comparison after it; the whole text and `.compare` without one.
    private static func split(_ text: String) throws -> (key: String, comparison: SortComparison) {
        guard let colon = text.lastIndex(of: ":") else { return (text, .compare) }
        let name = text[text.index(after: colon)...]
        guard let comparison = SortComparison.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            throw ValidationError("--sort \(text): unknown comparison '\(name)'; use one of \(comparisonNames)")
        }
        return (String(text[..<colon]), comparison)
    }
}

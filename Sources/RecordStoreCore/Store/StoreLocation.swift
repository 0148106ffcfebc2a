/// Where a store lives, as given to `Store.open(url:mode:progress:)`: a URL-like text whose
/// scheme picks the engine (``StoreScheme``), or a plain file path.
///
/// Parsing only splits off the scheme; the engine that registered it reads the rest.
///
/// ```swift
/// try StoreLocation("sqlite:cities.sqlite").scheme   // "sqlite"
/// try StoreLocation("./cities.sqlite").scheme        // nil: a file path
/// try StoreLocation("c:cities.sqlite").scheme        // nil: a one-letter prefix is a drive, not a scheme
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `StoreScheme` and
/// `StoreRegistry`.
public struct StoreLocation: Hashable, Sendable, CustomStringConvertible {
    /// The location as given.
    public let text: String
    /// The scheme, lower-cased (`sqlite`, `memory`, `postgres`, ...); nil for a plain file path.
    public let scheme: String?

    /// Parses a location; an empty one is ``RecordStoreError/invalidStoreLocation(_:reason:)``.
    public init(_ text: String) throws(RecordStoreError) {
        guard !text.isEmpty else { throw .invalidStoreLocation(text, reason: "the location is empty") }
        self.text = text
        if let colon = text.firstIndex(of: ":"), Self.isScheme(text[..<colon]) {
            scheme = text[..<colon].lowercased()
        } else {
            scheme = nil
        }
    }

    /// What follows `scheme:` (the whole text for a plain path).
    ///
    /// ```swift
    /// try StoreLocation("sqlite:///tmp/a.sqlite").remainder   // "///tmp/a.sqlite"
    /// ```
    public var remainder: String {
        guard let scheme else { return text }
        return String(text.dropFirst(scheme.count + 1))
    }

    /// The location as given.
    public var description: String { text }

    /// Whether text before a colon is a URL scheme (a letter, then letters, digits, `+`, `-`, `.`),
    /// and not a one-letter drive name.
    private static func isScheme(_ text: Substring) -> Bool {
        guard text.count > 1, let first = text.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }
}

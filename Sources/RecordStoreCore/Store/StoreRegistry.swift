import PredicateLanguage

/// The kinds of store that `Store.open(url:mode:progress:)` can open, by location scheme.
///
/// The core names no engine: each engine registers its ``StoreScheme``. `RecordStore` registers
/// SQLite and memory the first time a store is opened by location; an engine from another
/// library (PostgreSQL) is registered by the application, once, before it opens such a store.
///
/// ```swift
/// import RecordStorePostgres
///
/// StoreRegistry.shared.register(.postgres)
/// let store = try await Store.open(url: "postgres://app@localhost/cities")
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `StoreLocation` and
/// `StoreScheme`.
public final class StoreRegistry: Sendable {
    /// The registry `Store.open(url:mode:progress:)` reads.
    public static let shared = StoreRegistry()

    private let schemes = LockedState<[StoreScheme]>([])

    /// An empty registry.
    public init() {}

    /// Adds a kind of store; a later registration of a scheme name replaces an earlier one.
    public func register(_ scheme: StoreScheme) {
        schemes.withLock { schemes in
            schemes.removeAll { existing in
                !Set(existing.names).isDisjoint(with: scheme.names) || (existing.opensPlainPaths && scheme.opensPlainPaths)
            }
            schemes.append(scheme)
        }
    }

    /// Whether a scheme name is registered.
    ///
    /// ```swift
    /// StoreRegistry.shared.isRegistered("postgres")   // true once RecordStorePostgres registered it
    /// ```
    public func isRegistered(_ name: String) -> Bool {
        schemes.withLock { $0.contains { $0.names.contains(name.lowercased()) } }
    }

    /// The kind of store a location names, or ``RecordStoreError/invalidStoreLocation(_:reason:)``
    /// listing the registered ones.
    public func scheme(for location: StoreLocation) throws(RecordStoreError) -> StoreScheme {
        let registered = schemes.withLock { $0 }
        let found = registered.last { scheme in
            location.scheme.map(scheme.names.contains) ?? scheme.opensPlainPaths
        }
        if let found { return found }
        throw .invalidStoreLocation(location.text, reason: "unknown scheme '\(location.scheme ?? "")'; this build opens \(openableLocations)")
    }

    /// What the registered kinds open, as the error for an unknown scheme and the `query` tool's
    /// help say it: local kinds first (plain paths, then the other embedded ones), then the
    /// servers; by name within each, so that it does not depend on the order of registration.
    ///
    /// ```swift
    /// StoreRegistry.shared.openableLocations   // "a file path, sqlite:PATH, file:///PATH or memory:"
    /// ```
    public var openableLocations: String {
        let usages = schemes.withLock { $0 }
            .sorted { ($0.rank, $0.usage) < ($1.rank, $1.usage) }
            .map(\.usage)
        return switch usages.count {
        case 0: "nothing: no engine is registered (an engine library registers its own: StoreRegistry.shared.register(...))"
        case 1: usages[0]
        default: usages.dropLast().joined(separator: ", ") + " or " + usages[usages.count - 1]
        }
    }
}

extension StoreScheme {
    /// Where the scheme's usage stands in error messages: plain paths first, then the other
    /// kinds whose work is local, then servers.
    fileprivate var rank: Int { opensPlainPaths ? 0 : answersSynchronously ? 1 : 2 }
}

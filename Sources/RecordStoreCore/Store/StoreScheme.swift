/// A kind of store that locations can name: the URL schemes an engine answers and how it opens
/// a store at such a location. Engines register theirs in ``StoreRegistry``; `RecordStore`
/// registers SQLite (`sqlite:`, `file:` and plain paths) and memory (`memory:`), and
/// `RecordStorePostgres` offers `postgres:` and `postgresql:` for the application to register.
///
/// ```swift
/// let scheme = StoreScheme(names: ["memory"], usage: "memory:", answersSynchronously: true) { _, _ in
///     MemoryEngine()
/// }
/// StoreRegistry.shared.register(scheme)
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `StoreLocation` and
/// `StoreRegistry`.
public struct StoreScheme: Sendable {
    /// How a scheme opens the engine of a location.
    @_spi(StorageEngine) public typealias Opener = @Sendable (StoreLocation, StoreOpeningProgressHandler?) async throws(RecordStoreError) -> any StorageEngine

    /// The schemes (lower case, without the colon) this kind of store answers.
    public let names: [String]
    /// Whether a plain file path (a location without a scheme) opens this kind of store.
    public let opensPlainPaths: Bool
    /// How its locations are written, for error messages (`sqlite:PATH`, `memory:`).
    public let usage: String
    /// Whether its stores answer ``Store``'s synchronous methods (its engine's work is local).
    public let answersSynchronously: Bool
    /// Opens the engine of a location.
    @_spi(StorageEngine) public let open: Opener

    /// A kind of store: its scheme names, how its locations are written, and how it opens one.
    @_spi(StorageEngine) public init(
        names: [String], opensPlainPaths: Bool = false, usage: String, answersSynchronously: Bool, open: @escaping Opener
    ) {
        self.names = names.map { $0.lowercased() }
        self.opensPlainPaths = opensPlainPaths
        self.usage = usage
        self.answersSynchronously = answersSynchronously
        self.open = open
    }
}

extension StoreScheme {
    /// `memory:`: a new, empty store in memory each time it is opened (`MemoryEngine`).
    ///
    /// ```swift
    /// let scratch = try await Store.open(url: "memory:")
    /// ```
    public static let memory = StoreScheme(names: ["memory"], usage: "memory:", answersSynchronously: true) { _, _ in
        MemoryEngine()
    }
}

extension Store {
    /// A store that keeps everything in memory and runs queries with the evaluator.
    ///
    /// ```swift
    /// let store = Store.inMemory()
    /// ```
    public static func inMemory(mode: SchemaMode = .development) -> Store {
        Store(engine: MemoryEngine(), mode: mode)
    }
}

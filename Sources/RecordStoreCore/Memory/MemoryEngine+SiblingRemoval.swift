extension MemoryEngine: SiblingRemovingEngine {
    /// Forgets the store in memory called `name`: the next ``openSibling(named:progress:)`` makes a new one.
    package func removeSibling(named name: String) async throws(RecordStoreError) {
        siblings.withLock { $0[name] = nil }
    }
}

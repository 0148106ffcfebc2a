@_spi(StorageEngine) import RecordStoreCore

extension WaitingEngine: SiblingRemovingEngine {
    /// The base engine removes its sibling, when it can (``Store/removeSibling(named:)``).
    func removeSibling(named name: String) async throws(RecordStoreError) {
        guard let base = base as? any SiblingRemovingEngine else {
            throw .invalidStoreLocation("the store '\(name)' beside a \(base.name) store", reason: "the engine cannot remove the stores beside its own")
        }
        try await base.removeSibling(named: name)
    }
}

/// An engine that can empty the store called `name` beside its own
/// (``StorageEngine/openSibling(named:progress:)``): its records, zones, schema, history and
/// secret are gone, and the next opening of the sibling makes it anew, empty.
/// ``Store/removeSibling(named:)`` reaches it; an engine that does not conform keeps its
/// siblings (``RecordStoreError/invalidStoreLocation(_:reason:)``).
///
/// A handle opened on the sibling before must not be used after: open it again.
///
/// ```swift
/// @_spi(StorageEngine) import RecordStoreCore
///
/// extension MyEngine: SiblingRemovingEngine {
///     func removeSibling(named name: String) async throws(RecordStoreError) { ... }
/// }
/// ```
@_spi(StorageEngine) public protocol SiblingRemovingEngine: StorageEngine {
    /// Empties the sibling `name` (nothing to do when it was never opened).
    func removeSibling(named name: String) async throws(RecordStoreError)
}

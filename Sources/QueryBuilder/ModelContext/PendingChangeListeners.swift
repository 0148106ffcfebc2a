import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// The observations of a context that want to hear when its pending changes change (an insert,
/// update or delete registered, a rollback, a save), so that a builder query's observation shows
/// them as `all()` would.
final class PendingChangeListeners: Sendable {
    private let listeners = LockedState<[ObjectIdentifier: Wakeup]>([:])

    /// Starts waking `wakeup` on every change of the pending changes.
    func add(_ wakeup: Wakeup) {
        listeners.withLock { $0[ObjectIdentifier(wakeup)] = wakeup }
    }

    func remove(_ wakeup: Wakeup) {
        listeners.withLock { $0[ObjectIdentifier(wakeup)] = nil }
    }

    /// Wakes every listener.
    func pendingChangesChanged() {
        for wakeup in listeners.withLock({ Array($0.values) }) { wakeup.signal() }
    }
}

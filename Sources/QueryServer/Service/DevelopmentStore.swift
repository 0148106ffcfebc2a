// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// The development environment's store: the sibling `development` of the store a server serves
/// (``Store/openSibling(named:mode:schemaLimits:progress:)``), in development mode and held to
/// ``SchemaLimits/server``, with the served store's history retention, opened on first use and
/// kept. An opening that failed (a database server that could not be reached) is tried again by
/// the next caller.
///
/// ```swift
/// let development = DevelopmentStore(beside: store)
/// let schema = try await development.store().schema()
/// ```
final class DevelopmentStore: Sendable {
    /// The store it is the sibling of.
    private let production: Store
    /// The opening under way or done.
    private let opening = LockedState<Task<Store, any Error>?>(nil)
    /// The metrics the store records once opened (``recordMetrics(_:)``).
    private let metrics = LockedState<StoreMetrics?>(nil)

    /// The name of the sibling store (``Store/openSibling(named:mode:schemaLimits:progress:)``).
    static let siblingName = SchemaMode.development.rawValue

    /// The development store beside `production`, not opened yet.
    init(beside production: Store) {
        self.production = production
    }

    /// The store, opened on the first call.
    func store() async throws(ServerError) -> Store {
        do {
            return try await opened()
        } catch {
            throw Self.failure(error)
        }
    }

    /// The store, or nil when the engine keeps no store beside the served one (an engine of
    /// another package: ``RecordStoreError/invalidStoreLocation(_:reason:)``); the server then
    /// starts without a development environment, whose requests answer that error.
    func storeIfAvailable() async throws(ServerError) -> Store? {
        do {
            return try await opened()
        } catch .invalidStoreLocation {
            return nil
        } catch {
            throw Self.failure(error)
        }
    }

    /// Records the store's metrics to `metrics`, once it opens (or now, if it is open).
    func recordMetrics(_ metrics: StoreMetrics) {
        self.metrics.withLock { $0 = metrics }
        let opened = opening.withLock { $0 }
        Task { if let store = try? await opened?.value { store.recordMetrics(metrics) } }
    }

    /// An opening's error as the server answers it.
    private static func failure(_ error: RecordStoreError) -> ServerError {
        let answer = CloudKitService.serverError(error)
        return ServerError(answer.code, "the development environment's store could not be opened: \(error)", retryAfter: answer.retryAfter)
    }

    /// Empties the development store and opens it anew with `production`'s schema (what
    /// `schema/reset` does: ``Store/removeSibling(named:)``, then ``Store/deploySchema(from:progress:)``).
    /// Callers from now on wait for the new store; a request still holding the old one may fail.
    func reset() async throws(ServerError) {
        let task = opening.withLock { current in
            let (previous, production, metrics) = (current, self.production, self.metrics)
            let started = Task { () async throws -> Store in
                _ = try? await previous?.value
                try await production.removeSibling(named: Self.siblingName)
                let sibling = try await Self.open(beside: production, metrics: metrics)
                _ = try await sibling.deploySchema(from: production)
                return sibling
            }
            current = started
            return started
        }
        do {
            _ = try await task.value
        } catch {
            opening.withLock { current in if current == task { current = nil } }
            throw Self.failure(error as? RecordStoreError ?? .storage("\(error)"))
        }
    }

    /// The sibling of `production`, opened, with its history retention and `metrics`.
    private static func open(beside production: Store, metrics: LockedState<StoreMetrics?>) async throws(RecordStoreError) -> Store {
        let sibling = try await production.openSibling(named: Self.siblingName, mode: .development, schemaLimits: .server)
        // Its change history is kept as long as the served store's (`--history-retention-days`).
        sibling.historyRetention = production.historyRetention
        if let metrics = metrics.withLock({ $0 }) { sibling.recordMetrics(metrics) }
        return sibling
    }

    /// The opening's store or error; a failed opening is forgotten, so the next call tries again.
    private func opened() async throws(RecordStoreError) -> Store {
        let task = opening.withLock { current in
            if let current { return current }
            let (production, metrics) = (self.production, self.metrics)
            let started = Task { () async throws -> Store in try await Self.open(beside: production, metrics: metrics) }
            current = started
            return started
        }
        do {
            return try await task.value
        } catch {
            opening.withLock { current in if current == task { current = nil } }
            throw error as? RecordStoreError ?? .storage("\(error)")
        }
    }
}
#endif

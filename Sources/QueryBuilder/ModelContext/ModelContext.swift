import Foundation
import PredicateLanguage
import RecordStore

/// A scratch pad of model changes over a store and a zone, committed together by ``save()-7cric``.
///
/// Models are values, so a context does not watch them: you tell it what changed.
/// - ``insert(_:)`` registers a new model; saving it replaces a record stored under its name (an
///   upsert, as SwiftData does for unique attributes), so inserting the same model twice is harmless.
/// - ``update(_:)-8oqc9`` registers a changed model: call it again after each change you want saved (the
///   last registered value wins). The context checks, when saving, that the stored record is still
///   the version this context last read (fetched, or saved) — otherwise the save is a conflict.
/// - ``delete(_:)`` registers a deletion.
///
/// ``save()-7cric`` commits everything at once, all or nothing: on any error (a conflict, a bad field)
/// nothing is written and the pending changes stay as they were, so the caller can fix them
/// and retry, or ``rollback()``. Queries through the context see its pending changes (as Core
/// Data's `includesPendingChanges`), unless the query says `Query.includesPendingChanges(false)`.
///
/// ```swift
/// let context = ModelContext(store: Store.inMemory())
/// try context.insert(Item(id: "a1", name: "Apple", quantity: 1, date: .now))
/// try Item.query(in: context).count()        // 1: the pending insert is visible
/// try context.save()
///
/// var apple = try Item.query(in: context).fetch("a1")!
/// apple.quantity = 5
/// try context.update(apple)
/// try context.save()
/// ```
public final class ModelContext: Sendable {
    /// The store the context reads and saves.
    public let store: Store
    /// The zone every record of the context lives in.
    public let zone: ZoneID

    private struct State {
        var pending = PendingChangeSet()
        /// The change tags of the stored versions this context last read or saved.
        var knownChangeTags: [RecordID: String] = [:]
        var mergePolicy: MergePolicy = .error
    }

    private let state = LockedState(State())
    private let encoder = RecordEncoder()
    /// The observations to wake when the pending changes change.
    let pendingChangeListeners = PendingChangeListeners()

    /// Creates a context over a store and a zone (the default zone unless given).
    ///
    /// ```swift
    /// let context = ModelContext(store: try Store.open(path: "items.sqlite"))
    /// ```
    public init(store: Store, zone: ZoneID = .default) {
        self.store = store
        self.zone = zone
    }

    /// How ``save()-7cric`` resolves a uniqueness-constraint conflict (a model whose constrained
    /// fields, `RecordTypeSchema.uniquenessConstraints`, equal another record's in the zone), as
    /// Core Data's `NSManagedObjectContext.mergePolicy`: `MergePolicy.error` by default, which
    /// fails the save with `RecordStoreError.constraintConflict` and keeps the pending changes. Under
    /// the other policies, a model merged into an existing record is saved as that record (its
    /// own identifier is then gone from the store); `MergePolicy` says how each merges.
    ///
    /// ```swift
    /// context.mergePolicy = .mergeByPropertyObjectTrump
    /// try context.insert(Employee(email: "ada@example.com", age: 37))
    /// try context.save()   // updates the stored employee with that email
    /// ```
    public var mergePolicy: MergePolicy {
        get { state.withLock { $0.mergePolicy } }
        set { state.withLock { $0.mergePolicy = newValue } }
    }

    // MARK: Registering changes

    /// Registers a new model to save; returns the identifier of its record (a generated name
    /// when the model has no ``RecordModel/recordName``). Inserting a model whose deletion is
    /// pending turns the deletion into an update; inserting again before saving replaces the value.
    ///
    /// ```swift
    /// try context.insert(Item(id: "a1", name: "Apple", quantity: 1, date: .now))
    /// let noteID = try context.insert(Note(text: "hello"))   // RecordID(recordName: "6F1C...")
    /// ```
    @discardableResult
    public func insert<T: RecordModel>(_ model: T) throws -> RecordID {
        let record = try encoder.record(for: model, zone: zone)
        let id = record.recordID
        state.withLock { state in
            switch state.pending[id] {
            case .insert?, nil:
                state.pending[id] = .insert(record)
            case .update?, .delete?:
                state.pending[id] = .update(Self.withChangeTag(record, state.knownChangeTags[id]))
            }
        }
        pendingChangeListeners.pendingChangesChanged()
        return id
    }

    /// Registers the current value of a changed model; call it after every change to save
    /// (the last value registered before ``save()-7cric`` is the one saved). The model must have a
    /// record name. An update of a record this context has not read yet reads its change tag now.
    ///
    /// ```swift
    /// var apple = try Item.query(in: context).fetch("a1")!
    /// apple.quantity += 1
    /// try context.update(apple)
    /// ```
    public func update<T: RecordModel>(_ model: T) throws {
        let record = try updatedRecord(for: model)
        let currentTag = needsStoredChangeTag(record.recordID) ? try store.record(for: record.recordID)?.recordChangeTag : nil
        registerUpdate(record, currentTag: currentTag)
    }

    /// Registers the current value of a changed model (async): as ``update(_:)``, reading the
    /// change tag of a record this context has not read yet without blocking a thread.
    ///
    /// ```swift
    /// try await context.update(apple)
    /// ```
    public func update<T: RecordModel>(_ model: T) async throws {
        let record = try updatedRecord(for: model)
        let currentTag = needsStoredChangeTag(record.recordID) ? try await store.record(for: record.recordID)?.recordChangeTag : nil
        registerUpdate(record, currentTag: currentTag)
    }

    /// The record an update saves; the model must have a record name.
    private func updatedRecord<T: RecordModel>(for model: T) throws -> Record {
        guard let name = model.recordName else { throw QueryError.missingRecordName(recordType: T.recordType) }
        return try encoder.record(for: model, zone: zone, generatedName: name)
    }

    /// Whether an update must read the stored change tag first: the context has neither read the
    /// record nor a pending change of it.
    private func needsStoredChangeTag(_ id: RecordID) -> Bool {
        state.withLock { $0.knownChangeTags[id] == nil && $0.pending[id] == nil }
    }

    /// Registers an updated record, with the stored change tag when it was read.
    private func registerUpdate(_ record: Record, currentTag: String?) {
        let id = record.recordID
        state.withLock { state in
            switch state.pending[id] {
            case .insert?:
                state.pending[id] = .insert(record)
            case .update?, .delete?:
                state.pending[id] = .update(Self.withChangeTag(record, state.knownChangeTags[id]))
            case nil:
                if let tag = state.knownChangeTags[id] ?? currentTag {
                    state.knownChangeTags[id] = tag
                    state.pending[id] = .update(Self.withChangeTag(record, tag))
                } else {
                    state.pending[id] = .insert(record)
                }
            }
        }
        pendingChangeListeners.pendingChangesChanged()
    }

    /// Registers the deletion of a model's record (a pending insert of it is simply dropped).
    ///
    /// ```swift
    /// try context.delete(apple)
    /// try context.save()
    /// ```
    public func delete<T: RecordModel>(_ model: T) throws {
        guard let name = model.recordName else { throw QueryError.missingRecordName(recordType: T.recordType) }
        deleteRecord(RecordID(recordName: name, zoneID: zone), recordType: T.recordType)
    }

    /// Registers the deletion of a record by identifier.
    func deleteRecord(_ id: RecordID, recordType: String) {
        state.withLock { state in
            if case .insert? = state.pending[id] {
                state.pending[id] = nil
            } else {
                state.pending[id] = .delete(id, recordType: recordType, changeTag: state.knownChangeTags[id])
            }
        }
        pendingChangeListeners.pendingChangesChanged()
    }

    /// Whether the context holds changes not yet saved.
    ///
    /// ```swift
    /// try context.insert(item)
    /// context.hasChanges   // true
    /// ```
    public var hasChanges: Bool {
        state.withLock { !$0.pending.isEmpty }
    }

    /// How many records have a pending insert, update or delete.
    ///
    /// ```swift
    /// context.pendingChangeCount   // 2
    /// ```
    public var pendingChangeCount: Int {
        state.withLock { $0.pending.order.count }
    }

    /// Discards every pending change.
    ///
    /// ```swift
    /// try context.insert(item)
    /// context.rollback()
    /// context.hasChanges   // false
    /// ```
    public func rollback() {
        state.withLock { $0.pending = PendingChangeSet() }
        pendingChangeListeners.pendingChangesChanged()
    }

    // MARK: Saving

    /// Commits every pending change, all or nothing: inserts, updates and deletes go to the
    /// store in one atomic `modify(saving:deleting:)`, one transaction.
    ///
    /// Inserts replace whatever is stored under their names (an upsert). An update or a delete of
    /// a model changed (or deleted) by someone else since this context read it throws
    /// ``QueryError/modelChangedElsewhere(recordType:recordName:)``, checked inside the
    /// transaction. On any error nothing is written and the pending changes stay exactly as they
    /// were, so the caller can fix them and retry, or ``rollback()``.
    ///
    /// ```swift
    /// do { try context.save() }
    /// catch QueryError.modelChangedElsewhere(let type, let name) {
    ///     print("\(type) \(name) changed elsewhere; pending changes kept")
    /// }
    /// ```
    public func save() throws {
        try state.withLock { state in
            guard let batch = SaveBatch(state.pending.ordered, mergePolicy: state.mergePolicy) else { return }
            let result = try store.synchronously { try await batch.run(on: self.store) }
            try Self.commit(batch, result: result, to: &state)
        }
        pendingChangeListeners.pendingChangesChanged()
    }

    /// Commits every pending change, all or nothing (async): as ``save()``, without blocking a thread
    /// while the store writes.
    ///
    /// The changes saved are the ones pending when the call starts. A change registered while the
    /// store writes stays pending (it is not lost, and not reported saved) for the next save.
    ///
    /// ```swift
    /// try await context.save()
    /// ```
    public func save() async throws {
        guard let batch = state.withLock({ SaveBatch($0.pending.ordered, mergePolicy: $0.mergePolicy) }) else { return }
        let result = try await batch.run(on: store)
        try state.withLock { state in try Self.commit(batch, result: result, to: &state) }
        pendingChangeListeners.pendingChangesChanged()
    }

    /// The pending changes of one save, as the store's `modify` takes them.
    private struct SaveBatch {
        let changes: [(RecordID, PendingChange)]
        let records: [Record]
        var deletions: [RecordID] = []
        var expectedTags: [RecordID: String] = [:]
        /// The inserts: saved over whatever is stored.
        var overwriting: Set<RecordID> = []
        let mergePolicy: MergePolicy

        /// Nil when nothing is pending.
        init?(_ changes: [(RecordID, PendingChange)], mergePolicy: MergePolicy) {
            guard !changes.isEmpty else { return nil }
            self.changes = changes
            self.mergePolicy = mergePolicy
            records = changes.compactMap { $0.1.savedRecord }
            for (id, change) in changes {
                switch change {
                case .insert: overwriting.insert(id)
                case .update: break
                case .delete(_, _, let expectedTag):
                    deletions.append(id)
                    if let expectedTag { expectedTags[id] = expectedTag }
                }
            }
        }

        /// Saves the batch in one transaction.
        func run(on store: Store) async throws(RecordStoreError) -> ModifyResult {
            try await store.modify(
                saving: records, deleting: deletions, expectedChangeTags: expectedTags, overwriting: overwriting, atomically: true,
                mergePolicy: mergePolicy)
        }
    }

    /// Records the outcome of a save: on an error nothing changes (and the error is thrown);
    /// otherwise the saved change tags are remembered and the saved changes stop being pending,
    /// unless one was replaced by a newer change while the store wrote.
    private static func commit(_ batch: SaveBatch, result: ModifyResult, to state: inout State) throws {
        if let error = firstError(of: result, in: batch.changes.map(\.0)) {
            // A conflict is about a model this context read: say so in the words of models.
            if case .conflict(let id, _, _) = error, let change = batch.changes.first(where: { $0.0 == id })?.1 {
                throw QueryError.modelChangedElsewhere(recordType: change.recordType, recordName: id.recordName)
            }
            throw error
        }
        for (id, outcome) in result.saveResults {
            guard case .success(let saved) = outcome else { continue }
            // A model merged into another record (a merge policy) is gone under its own identifier.
            state.knownChangeTags[id] = saved.recordID == id ? saved.recordChangeTag : nil
            state.knownChangeTags[saved.recordID] = saved.recordChangeTag
        }
        for id in batch.deletions { state.knownChangeTags[id] = nil }
        for (id, change) in batch.changes where state.pending[id] == change { state.pending[id] = nil }
    }

    /// The error of an atomic modify, preferring the record that caused it over the others'
    /// `batchRequestFailed`, in the order the changes were made.
    private static func firstError(of result: ModifyResult, in order: [RecordID]) -> RecordStoreError? {
        let errors = result.errors
        guard !errors.isEmpty else { return nil }
        for id in order {
            if let error = errors[id], case .batchRequestFailed = error { continue }
            if let error = errors[id] { return error }
        }
        return order.lazy.compactMap { errors[$0] }.first
    }

    // MARK: Internals for queries

    /// Takes note of records a batch request deleted in the store, bypassing the context: their
    /// pending deletions are done, and the versions read of them are gone (a pending update of
    /// one becomes a conflict when saved; a pending insert creates it again).
    func forgetDeleted(_ ids: [RecordID]) {
        let dropped = state.withLock { state in
            var dropped = false
            for id in ids {
                state.knownChangeTags[id] = nil
                if case .delete? = state.pending[id] {
                    state.pending[id] = nil
                    dropped = true
                }
            }
            return dropped
        }
        if dropped { pendingChangeListeners.pendingChangesChanged() }
    }

    /// A copy of the pending changes to records of one type in this context's zone.
    func pendingChanges(ofType recordType: String) -> [(RecordID, PendingChange)] {
        state.withLock { $0.pending.changes(ofType: recordType, zone: zone) }
    }

    /// Every pending change, of every type, as records laid over the store's: the inserted and
    /// updated records, and the deleted ones.
    func pendingOverlay() -> RecordOverlay {
        let changes = state.withLock { $0.pending.ordered }
        var overlay = RecordOverlay()
        for (id, change) in changes {
            if let record = change.savedRecord { overlay.saved[id] = record } else { overlay.deleted.insert(id) }
        }
        return overlay
    }

    /// Remembers the change tags of records read from the store.
    func remember(_ records: [Record]) {
        state.withLock { state in
            for record in records {
                if let tag = record.recordChangeTag { state.knownChangeTags[record.recordID] = tag }
            }
        }
    }

    private static func withChangeTag(_ record: Record, _ tag: String?) -> Record {
        var record = record
        record.recordChangeTag = tag
        return record
    }
}

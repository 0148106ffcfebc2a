import RecordStore

/// What a ``RecordReference`` carries besides the record it names.
enum ReferenceAttachment<Target: RecordModel>: Sendable {
    /// The referenced model, prefetched (boxed: a model may reference its own type).
    indirect case target(Target)
    /// A probe's recorder: the reference is used to learn which property of the target a
    /// predicate's key path reads (``RecordReference/relatedFieldName(for:)``).
    case recorder(KeyPathRecorder)
}

/// Remembers the key path a probe ``RecordReference`` was read through. A recorder belongs to one
/// conversion, which reads the probe on one thread and then the recorder: `@unchecked Sendable`
/// only so that the probe is a valid `Sendable` reference.
final class KeyPathRecorder: @unchecked Sendable {
    private(set) var recorded: AnyKeyPath?

    func record(_ keyPath: AnyKeyPath) {
        recorded = keyPath
    }
}

/// A reference whose target can be attached once it is read (prefetching).
protocol PrefetchableReference {
    /// The reference with its target decoded from a record.
    func attaching(_ record: Record, decoder: RecordDecoder) throws -> Self
}

extension RecordReference: PrefetchableReference {
    func attaching(_ record: Record, decoder: RecordDecoder) throws -> RecordReference {
        var copy = self
        copy.attachment = .target(try decoder.decode(Target.self, from: record))
        return copy
    }
}

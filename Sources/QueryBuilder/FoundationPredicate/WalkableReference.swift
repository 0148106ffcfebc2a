import RecordStore

/// A reference type whose key paths lead into the target model's fields: a to-one relationship
/// that predicates walk.
protocol WalkableReference {
    /// The target's field a key path of the reference reads (`\RecordReference<Customer>.name`
    /// reads `name`), or nil when it reads no field of the target's table.
    static func relatedFieldName(for keyPath: AnyKeyPath) -> String?
}

extension RecordReference: WalkableReference where Target: Queryable {
    /// Reads the key path on a probe reference whose dynamic member lookup records the target's
    /// key path it was given, then looks that key path up in the target's ``Queryable/attributeKeyPaths``.
    static func relatedFieldName(for keyPath: AnyKeyPath) -> String? {
        let recorder = KeyPathRecorder()
        var probe = RecordReference(recordName: "")
        probe.attachment = .recorder(recorder)
        _ = probe[keyPath: keyPath]
        guard let read = recorder.recorded as? PartialKeyPath<Target>, let attribute = Target.attributeKeyPaths[read] else { return nil }
        return Target.fieldName(for: attribute)
    }
}

/// An optional walkable reference (`RecordReference<Customer>?`), recognised without knowing its target.
protocol OptionalWalkableReference {}

extension Optional: OptionalWalkableReference where Wrapped: WalkableReference {}

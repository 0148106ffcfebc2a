/// Reads one key, resolved against a field layout, from a borrowed object of the layout's type.
typealias FieldLayoutKeyReader = @Sendable (UnsafeRawPointer) -> Value

/// The field layout of one ``FieldLayoutReadable`` type, as the compilers use it: the type,
/// and for a key, a reader of it from a borrowed object of that type (nil: read by name).
struct CompiledFieldLayout: Sendable {
    /// The layout's type; the closures compiled against it run only on objects of this type.
    let type: ObjectIdentifier
    /// The reader of a key, made once per key when compiling.
    let reader: @Sendable (String) -> FieldLayoutKeyReader?

    init<Object: FieldLayoutReadable>(_ type: Object.Type) {
        self.type = ObjectIdentifier(type)
        self.reader = { key in
            guard let fieldReader = Object.fieldReader(forKey: key) else { return nil }
            let read = fieldReader.read
            return { pointer in
                // An inout access reads the caller's object in place (see EvaluationRoot); nothing writes.
                Self.read(&UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: Object.self).pointee, with: read)
            }
        }
    }

    @inline(__always)
    private static func read<Object>(_ object: inout Object, with read: @Sendable (Object) -> Value) -> Value {
        read(object)
    }
}

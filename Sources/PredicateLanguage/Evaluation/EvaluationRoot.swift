/// The evaluated object (`SELF`) for the length of one evaluation.
///
/// A `[String: Value]` (or a `Value` holding an `.object`), the objects most predicates run
/// against, is held as it is and read directly: a key is one dictionary lookup on a value the
/// compiled closures borrow, with no reference counting per key and no protocol call. Any
/// other ``KeyValueReadable`` (or `Value`) is borrowed in place, a pointer to the caller's
/// value and its type, and read through its conformance, so starting an evaluation neither
/// copies nor boxes it.
///
/// A root that points at an object is only valid inside the `withRoot` call that made it;
/// compiled closures receive it in their ``EvaluationContext`` and never keep it.
struct EvaluationRoot {
    /// `SELF`'s fields when it is a dictionary or an `.object` value: read directly.
    let fields: [String: Value]?
    /// `SELF` when it is anything else, borrowed in place, and its type.
    let object: UnsafeRawPointer?
    let objectType: (any KeyValueReadable.Type)?

    /// A root holding a dictionary of fields.
    @inline(__always)
    init(fields: consuming [String: Value]) {
        self.init(fields: fields, object: nil, objectType: nil)
    }

    /// Runs `body` with `object` as a root: a dictionary (or `.object` value) held, anything else borrowed.
    @inline(__always)
    static func withRoot<Object: KeyValueReadable, Result>(
        _ object: borrowing Object, _ body: (consuming EvaluationRoot) throws(FormatPredicateError) -> Result
    ) throws(FormatPredicateError) -> Result {
        try withUnsafePointer(to: object) { (pointer) throws(FormatPredicateError) -> Result in
            try body(EvaluationRoot(UnsafeRawPointer(pointer), of: Object.self))
        }
    }

    /// A root for the object of type `type` at `pointer`: a dictionary or an `.object` value
    /// is copied (one reference count), anything else is borrowed.
    init(_ pointer: UnsafeRawPointer, of type: any KeyValueReadable.Type) {
        if type == [String: Value].self {
            self.init(fields: pointer.assumingMemoryBound(to: [String: Value].self).pointee)
        } else if type == Value.self, case .object(let fields) = pointer.assumingMemoryBound(to: Value.self).pointee {
            self.init(fields: fields)
        } else {
            self.init(fields: nil, object: pointer, objectType: type)
        }
    }

    @inline(__always)
    private init(fields: consuming [String: Value]?, object: UnsafeRawPointer?, objectType: (any KeyValueReadable.Type)?) {
        self.fields = fields
        self.object = object
        self.objectType = objectType
    }

    /// The value under `key` (see ``KeyValueReadable/value(forKey:)``).
    @inline(__always)
    func value(forKey key: String) -> Value {
        if let fields { return fields[key] ?? .null }
        return objectValue(forKey: key)
    }

    /// The value under `key` of a root that is not a dictionary.
    func objectValue(forKey key: String) -> Value {
        if let object, let objectType { return Self.value(forKey: key, of: objectType, at: object) }
        return .null
    }

    /// The object as a value: what `SELF` evaluates to (see ``KeyValueReadable/evaluatedObjectValue()``).
    func evaluatedObjectValue() -> Value {
        if let fields { return .object(fields) }
        if let object, let objectType { return Self.evaluatedObjectValue(of: objectType, at: object) }
        return .null
    }

    /// The strings a full-text search looks at (see ``KeyValueReadable/fullTextValues()``).
    func fullTextValues() -> [String] {
        if let fields { return fields.fullTextValues() }
        if let object, let objectType { return Self.fullTextValues(of: objectType, at: object) }
        return []
    }

    /// The value `reader` reads from the borrowed object (a key resolved against its
    /// ``FieldLayoutReadable`` layout), or, on a root of another kind, the value under `key`.
    @inline(__always)
    func value(forKey key: String, reader: FieldLayoutKeyReader) -> Value {
        if let object { return reader(object) }
        return value(forKey: key)
    }

    // The borrowed object is read through an `inout` access to the caller's value: read
    // through a pointer's `pointee`, Swift copies the value (retaining each of its
    // references) for every read. Nothing writes through these accesses.

    private static func value<Object: KeyValueReadable>(forKey key: String, of type: Object.Type, at pointer: UnsafeRawPointer) -> Value {
        value(forKey: key, of: &UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: Object.self).pointee)
    }

    private static func evaluatedObjectValue<Object: KeyValueReadable>(of type: Object.Type, at pointer: UnsafeRawPointer) -> Value {
        evaluatedObjectValue(of: &UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: Object.self).pointee)
    }

    private static func fullTextValues<Object: KeyValueReadable>(of type: Object.Type, at pointer: UnsafeRawPointer) -> [String] {
        fullTextValues(of: &UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: Object.self).pointee)
    }

    @inline(__always)
    private static func value<Object: KeyValueReadable>(forKey key: String, of object: inout Object) -> Value {
        object.value(forKey: key)
    }

    @inline(__always)
    private static func evaluatedObjectValue<Object: KeyValueReadable>(of object: inout Object) -> Value {
        object.evaluatedObjectValue()
    }

    @inline(__always)
    private static func fullTextValues<Object: KeyValueReadable>(of object: inout Object) -> [String] {
        object.fullTextValues()
    }
}

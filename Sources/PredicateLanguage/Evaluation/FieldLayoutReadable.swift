/// A ``KeyValueReadable`` type whose fields a predicate can be compiled against: each key
/// the predicate reads from `SELF` is resolved once, when compiling, to a ``FieldReader``
/// for that field, instead of being looked up by name on every object.
///
/// Compile with ``CompiledPredicate/init(_:options:layout:)``; evaluating an object of the
/// layout's type then reads its fields through the readers, and any other object as usual.
/// A reader must give exactly what ``KeyValueReadable/value(forKey:)`` gives for its key;
/// return nil for a key to have it read through `value(forKey:)`.
///
/// ```swift
/// struct City: FieldLayoutReadable {
///     var name: String
///     var population: Int64
///     func value(forKey key: String) -> Value {
///         switch key {
///         case "name": .string(name)
///         case "population": .int(population)
///         default: .null
///         }
///     }
///     static func fieldReader(forKey key: String) -> FieldReader<City>? {
///         switch key {
///         case "name": FieldReader { .string($0.name) }
///         case "population": FieldReader { .int($0.population) }
///         default: nil
///         }
///     }
/// }
/// let compiled = try CompiledPredicate(FormatPredicate(format: "population > 1000000"), layout: City.self)
/// try compiled.evaluate(City(name: "Paris", population: 2_148_000))   // true
/// ```
public protocol FieldLayoutReadable: KeyValueReadable, SendableMetatype {
    /// How to read `key` from any object of this type, or nil to read it through
    /// ``KeyValueReadable/value(forKey:)``. Called once per key when a predicate is compiled.
    static func fieldReader(forKey key: String) -> FieldReader<Self>?
}

/// How to read one field from objects of a ``FieldLayoutReadable`` type: a key resolved once.
///
/// ```swift
/// let population = FieldReader<City> { .int($0.population) }
/// ```
public struct FieldReader<Object>: Sendable {
    /// Reads the field from an object.
    let read: @Sendable (Object) -> Value

    /// A reader that reads the field with `read`, which must give what the object's
    /// `value(forKey:)` gives for the key it was made for.
    ///
    /// ```swift
    /// FieldReader<City> { .string($0.name) }
    /// ```
    public init(_ read: @escaping @Sendable (Object) -> Value) {
        self.read = read
    }
}

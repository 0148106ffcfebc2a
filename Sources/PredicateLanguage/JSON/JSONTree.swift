/// What the package's one JSON reader (`JSONReader`) builds as it reads: a type that makes
/// itself from each JSON value, bottom up, so that reading needs no intermediate tree.
///
/// Two types conform: ``JSONValue`` (plain JSON, integers kept apart from other numbers, as
/// CloudKit's wire carries it) and ``Value`` (the command line's JSON mapping: integral numbers
/// are integers, and one-key objects such as `{"$date": ...}` are typed values). What differs
/// between them lives here; the grammar, the offsets of errors and the depth limit live in the
/// reader.
///
/// ```swift
/// extension JSONValue: JSONTree {
///     package static func jsonInteger(_ integer: Int64) -> JSONValue { .integer(integer) }
///     // ...
/// }
/// ```
package protocol JSONTree {
    /// `null`.
    static func jsonNull() -> Self
    /// `true` or `false`.
    static func jsonBool(_ flag: Bool) -> Self
    /// A number without fraction or exponent that fits in 64 bits.
    static func jsonInteger(_ integer: Int64) -> Self
    /// Any other number.
    static func jsonNumber(_ number: Double) -> Self
    /// A string.
    static func jsonString(_ text: String) -> Self
    /// An array, its elements read.
    static func jsonArray(_ elements: [Self]) -> Self
    /// An object, its members read (the last of a repeated key wins). A thrown error's offset
    /// is replaced by the offset of the object's `{`.
    static func jsonObject(_ members: [String: Self]) throws(JSONParsingError) -> Self
}

/// The type of a Core Data attribute, as a model file spells it (`attributeType="Integer 64"`).
///
/// ```swift
/// CoreDataAttributeType(rawValue: "Integer 16")?.storeType   // .int64
/// CoreDataAttributeType.transformable.storeType              // .bytes
/// ```
///
/// `Composite` attributes (and the model-level `<compositeAttribute>` they name) and `Object ID`
/// attributes are refused when a model is read: the store has no type that keeps them.
public enum CoreDataAttributeType: String, Sendable, Hashable, Codable, CaseIterable {
    /// `Integer 16`: a 16-bit signed integer.
    case integer16 = "Integer 16"
    /// `Integer 32`: a 32-bit signed integer.
    case integer32 = "Integer 32"
    /// `Integer 64`: a 64-bit signed integer.
    case integer64 = "Integer 64"
    /// `Decimal`: an `NSDecimalNumber`; the store keeps it as a double, which may round it.
    case decimal = "Decimal"
    /// `Double`: a double-precision number.
    case double = "Double"
    /// `Float`: a single-precision number, kept as a double.
    case float = "Float"
    /// `String`: text.
    case string = "String"
    /// `Boolean`: a boolean.
    case boolean = "Boolean"
    /// `Date`: a date.
    case date = "Date"
    /// `Binary`: raw bytes (`Data`).
    case binary = "Binary"
    /// `UUID`: a UUID, kept as its text (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`).
    case uuid = "UUID"
    /// `URI`: a URL, kept as its text.
    case uri = "URI"
    /// `Transformable`: a value a `ValueTransformer` turns into bytes; the store keeps the bytes
    /// and cannot look inside them (``CoreDataAttribute/valueTransformerName`` names the transformer).
    case transformable = "Transformable"
    /// `Undefined`: a transient attribute of any type; never stored.
    case undefined = "Undefined"

    /// The store's type that keeps every value of this type, or nil for ``undefined``:
    /// integers are `int64`, `Decimal`, `Double` and `Float` are `double`, `String`, `UUID` and
    /// `URI` are `string`, `Boolean` is `bool`, `Date` is `date`, `Binary` and `Transformable`
    /// are `bytes`.
    ///
    /// ```swift
    /// CoreDataAttributeType.uuid.storeType   // .string
    /// ```
    public var storeType: FieldType? {
        switch self {
        case .integer16, .integer32, .integer64: .int64
        case .decimal, .double, .float: .double
        case .string, .uuid, .uri: .string
        case .boolean: .bool
        case .date: .date
        case .binary, .transformable: .bytes
        case .undefined: nil
        }
    }
}

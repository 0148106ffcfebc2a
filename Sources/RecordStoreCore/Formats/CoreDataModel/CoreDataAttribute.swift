/// An attribute of a Core Data entity (`<attribute name="salary" attributeType="Double" …/>`).
///
/// ```swift
/// let salary = model.entity(named: "Employee")?.attribute(named: "salary")
/// salary?.type                 // .double
/// salary?.defaultValueString   // "0.0"
/// ```
///
/// Its validation settings (`optional`, `defaultValueString`, `minValueString`,
/// `maxValueString`, `minDateTimeInterval`, `maxDateTimeInterval`, `regularExpressionString`)
/// become its field's ``FieldValidation`` (``fieldValidation``), which the store enforces at save.
public struct CoreDataAttribute: Sendable, Hashable, Codable {
    /// The attribute's name.
    public var name: String
    /// Its type.
    public var type: CoreDataAttributeType
    /// Whether it may be nil (`optional="YES"`).
    public var isOptional: Bool
    /// The default value as the model writes it (`"0"`, `"NO"`, `"Unnamed"`), if any.
    public var defaultValueString: String?
    /// A date attribute's default, in seconds since 2001-01-01 (`defaultDateTimeInterval`), if any.
    public var defaultDateTimeInterval: Double?
    /// Whether Core Data indexes it (`indexed="YES"`).
    public var isIndexed: Bool
    /// Whether it is transient: kept in memory by Core Data, never stored.
    public var isTransient: Bool
    /// A transformable attribute's `ValueTransformer` (`NSSecureUnarchiveFromData`), if named.
    public var valueTransformerName: String?
    /// The class a transformable attribute holds (`customClassName`, `[String]`), if named.
    public var customClassName: String?
    /// The smallest value (or shortest length) the model allows, as written, if any.
    public var minValueString: String?
    /// The largest value (or longest length) the model allows, as written, if any.
    public var maxValueString: String?
    /// The pattern a string attribute must match, if any.
    public var regularExpressionString: String?
    /// A date attribute's earliest value, in seconds since 2001-01-01 (`minDateTimeInterval`), if any.
    public var minDateTimeInterval: Double?
    /// A date attribute's latest value, in seconds since 2001-01-01 (`maxDateTimeInterval`), if any.
    public var maxDateTimeInterval: Double?
    /// The name it had in an earlier version of the model (`renamingIdentifier`), if set: a
    /// migration renames that version's field to this attribute's name, keeping its values.
    public var renamingIdentifier: String?

    /// Creates an attribute.
    ///
    /// ```swift
    /// CoreDataAttribute(name: "name", type: .string, isOptional: false, isIndexed: true)
    /// ```
    public init(
        name: String, type: CoreDataAttributeType, isOptional: Bool = true, defaultValueString: String? = nil,
        defaultDateTimeInterval: Double? = nil, isIndexed: Bool = false, isTransient: Bool = false,
        valueTransformerName: String? = nil, customClassName: String? = nil,
        minValueString: String? = nil, maxValueString: String? = nil, regularExpressionString: String? = nil,
        minDateTimeInterval: Double? = nil, maxDateTimeInterval: Double? = nil, renamingIdentifier: String? = nil
    ) {
        self.renamingIdentifier = renamingIdentifier
        self.minDateTimeInterval = minDateTimeInterval
        self.maxDateTimeInterval = maxDateTimeInterval
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValueString = defaultValueString
        self.defaultDateTimeInterval = defaultDateTimeInterval
        self.isIndexed = isIndexed
        self.isTransient = isTransient
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.regularExpressionString = regularExpressionString
    }

    /// Whether the store keeps this attribute's values as bytes it cannot look inside: a
    /// `Transformable` attribute, whose value only its `ValueTransformer` can decode.
    public var isOpaqueBytes: Bool { type == .transformable }
}

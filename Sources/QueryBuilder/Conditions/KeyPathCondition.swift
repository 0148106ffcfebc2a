import PredicateLanguage

/// A condition on the property a key path names: `\.quantity == 1`, `\.date < cutoff`.
/// The field's name comes from the model's ``Queryable/attributeKeyPaths`` table.
///
/// ```swift
/// try Item.query(in: context).where(\.quantity == 1).where(\.name != "Pear")
/// // quantity == 1 AND name != "Pear"
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `FieldCondition`,
/// `AttributeCondition`, `SQLCondition` and `QueryFilter`.
public struct KeyPathCondition<Root>: @unchecked Sendable {
    /// The property.
    public let keyPath: PartialKeyPath<Root>
    /// The condition on it.
    public let condition: FieldComparison

    /// Creates a condition on a key path.
    ///
    /// ```swift
    /// KeyPathCondition(\Item.quantity, FieldComparison(.greaterThan, 2))
    /// ```
    public init(_ keyPath: PartialKeyPath<Root>, _ condition: FieldComparison) {
        self.keyPath = keyPath
        self.condition = condition
    }
}

/// `\.field == value`: a plain equality, which ``Query/firstOrInsert()-6iyj1`` can insert from.
///
/// ```swift
/// try Item.query(in: context).where(\.quantity == 1)
/// ```
public func == <Root, Field: FormatArgument>(keyPath: KeyPath<Root, Field>, value: Field) -> KeyPathCondition<Root> {
    KeyPathCondition(keyPath, FieldComparison(.equalTo, value.formatArgumentValue))
}

/// `\.field != value`.
///
/// ```swift
/// try Item.query(in: context).where(\.quantity != 1)
/// ```
public func != <Root, Field: FormatArgument>(keyPath: KeyPath<Root, Field>, value: Field) -> KeyPathCondition<Root> {
    KeyPathCondition(keyPath, FieldComparison(.notEqualTo, value.formatArgumentValue))
}

/// `\.field < value`.
///
/// ```swift
/// try Item.query(in: context).where(\.quantity < 3)
/// ```
public func < <Root, Field: FormatArgument>(keyPath: KeyPath<Root, Field>, value: Field) -> KeyPathCondition<Root> {
    KeyPathCondition(keyPath, FieldComparison(.lessThan, value.formatArgumentValue))
}

/// `\.field <= value`.
///
/// ```swift
/// try Item.query(in: context).where(\.quantity <= 3)
/// ```
public func <= <Root, Field: FormatArgument>(keyPath: KeyPath<Root, Field>, value: Field) -> KeyPathCondition<Root> {
    KeyPathCondition(keyPath, FieldComparison(.lessThanOrEqualTo, value.formatArgumentValue))
}

/// `\.field > value`.
///
/// ```swift
/// try Item.query(in: context).where(\.quantity > 3)
/// ```
public func > <Root, Field: FormatArgument>(keyPath: KeyPath<Root, Field>, value: Field) -> KeyPathCondition<Root> {
    KeyPathCondition(keyPath, FieldComparison(.greaterThan, value.formatArgumentValue))
}

/// `\.field >= value`.
///
/// ```swift
/// try Item.query(in: context).where(\.quantity >= 3)
/// ```
public func >= <Root, Field: FormatArgument>(keyPath: KeyPath<Root, Field>, value: Field) -> KeyPathCondition<Root> {
    KeyPathCondition(keyPath, FieldComparison(.greaterThanOrEqualTo, value.formatArgumentValue))
}

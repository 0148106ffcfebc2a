import PredicateLanguage
import RecordStore

extension Query where T: Queryable {
    /// The sum of an attribute over every match (`.int(0)` when nothing matches); see `sum(_:)` of a field name.
    ///
    /// ```swift
    /// try Item.query(in: context).sum(.quantity)   // .int(12)
    /// ```
    public func sum(_ attribute: T.Attribute) throws -> Value {
        try synchronously { try await self.sum(attribute) }
    }

    /// The average of an attribute; nil when no match has a value.
    ///
    /// ```swift
    /// try Item.query(in: context).average(.quantity)   // Optional(2.4)
    /// ```
    public func average(_ attribute: T.Attribute) throws -> Double? {
        try synchronously { try await self.average(attribute) }
    }

    /// The smallest value of an attribute; `.null` when no match has a value.
    ///
    /// ```swift
    /// try Item.query(in: context).min(.name)   // .string("Apple")
    /// ```
    public func min(_ attribute: T.Attribute) throws -> Value {
        try synchronously { try await self.min(attribute) }
    }

    /// The largest value of an attribute; `.null` when no match has a value.
    ///
    /// ```swift
    /// try Item.query(in: context).max(.date)   // .date(...)
    /// ```
    public func max(_ attribute: T.Attribute) throws -> Value {
        try synchronously { try await self.max(attribute) }
    }

    /// The sum of a key path's numeric property, in its own type (zero when nothing matches).
    ///
    /// ```swift
    /// let total: Int = try Item.query(in: context).sum(\.quantity)   // 12
    /// ```
    public func sum<Field: Numeric & Decodable>(_ keyPath: KeyPath<T, Field>) throws -> Field {
        try synchronously { try await self.sum(keyPath) }
    }

    /// The sum of a key path's optional numeric property (zero when no match has a value).
    ///
    /// ```swift
    /// let total: Double = try Reading.query(in: context).sum(\.celsius)   // var celsius: Double?
    /// ```
    public func sum<Field: Numeric & Decodable>(_ keyPath: KeyPath<T, Field?>) throws -> Field {
        try synchronously { try await self.sum(keyPath) }
    }

    /// The average of a key path's numeric property; nil when no match has a value.
    ///
    /// ```swift
    /// try Item.query(in: context).average(\.quantity)   // Optional(2.4)
    /// ```
    public func average<Field>(_ keyPath: KeyPath<T, Field>) throws -> Double? {
        try synchronously { try await self.average(keyPath) }
    }

    /// The smallest value of a key path's property, in its own type; nil when no match has a value.
    ///
    /// ```swift
    /// let earliest: Date? = try Item.query(in: context).min(\.date)
    /// ```
    public func min<Field: Decodable>(_ keyPath: KeyPath<T, Field>) throws -> Field? {
        try synchronously { try await self.min(keyPath) }
    }

    /// The smallest value of a key path's optional property; nil when no match has a value.
    ///
    /// ```swift
    /// let first: String? = try Item.query(in: context).min(\.department)   // var department: String?
    /// ```
    public func min<Field: Decodable>(_ keyPath: KeyPath<T, Field?>) throws -> Field? {
        try synchronously { try await self.min(keyPath) }
    }

    /// The largest value of a key path's property, in its own type; nil when no match has a value.
    ///
    /// ```swift
    /// let most: Int? = try Item.query(in: context).max(\.quantity)   // 4
    /// ```
    public func max<Field: Decodable>(_ keyPath: KeyPath<T, Field>) throws -> Field? {
        try synchronously { try await self.max(keyPath) }
    }

    /// The largest value of a key path's optional property; nil when no match has a value.
    ///
    /// ```swift
    /// let last: String? = try Item.query(in: context).max(\.department)
    /// ```
    public func max<Field: Decodable>(_ keyPath: KeyPath<T, Field?>) throws -> Field? {
        try synchronously { try await self.max(keyPath) }
    }

    /// The matches grouped by attributes, with counts; see `group(by:)` of field names.
    ///
    /// ```swift
    /// try Item.query(in: context).group(by: .department)
    /// ```
    public func group(by attributes: T.Attribute...) throws -> [GroupCount] {
        try group(by: attributes.map(T.fieldName(for:)))
    }

    /// The matches grouped by key paths' properties, with counts.
    ///
    /// ```swift
    /// try Item.query(in: context).group(by: \.department, \.quantity)
    /// ```
    public func group(by keyPaths: PartialKeyPath<T>...) throws -> [GroupCount] {
        try group(by: keyPaths.map { try T.fieldName(for: $0) })
    }



    /// A sum as the property's type: zero for `.null`.
    func decodedSum<Field: Numeric & Decodable>(_ total: Value, field: String) throws -> Field {
        total.isNull ? .zero : try decodeAggregate(total, as: Field.self, field: field)
    }

    /// A minimum or maximum as the property's type: nil for `.null`.
    func decodedExtreme<Field: Decodable>(_ extreme: Value, field: String) throws -> Field? {
        extreme.isNull ? nil : try decodeAggregate(extreme, as: Field.self, field: field)
    }

    /// An aggregate value as a property's type, as the record decoder reads a field.
    private func decodeAggregate<Field: Decodable>(_ value: Value, as type: Field.Type, field: String) throws -> Field {
        try RecordDecoder().decode(Field.self, fromValue: value, field: field, recordType: T.recordType, recordName: "(aggregate)")
    }
}

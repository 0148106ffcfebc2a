import PredicateLanguage
import RecordStore

/// The async forms of the typed aggregates: the same answers as the synchronous ones in
/// `Query+TypedAggregates.swift`, read without blocking a thread.
extension Query where T: Queryable {
    /// The sum of an attribute over every match (async).
    ///
    /// ```swift
    /// let total = try await Item.query(in: context).sum(.quantity)   // .int(12)
    /// ```
    public func sum(_ attribute: T.Attribute) async throws -> Value {
        try await sum(T.fieldName(for: attribute))
    }

    /// The average of an attribute (async); nil when no match has a value.
    ///
    /// ```swift
    /// let mean = try await Item.query(in: context).average(.quantity)   // Optional(2.4)
    /// ```
    public func average(_ attribute: T.Attribute) async throws -> Double? {
        try await average(T.fieldName(for: attribute))
    }

    /// The smallest value of an attribute (async).
    ///
    /// ```swift
    /// let first = try await Item.query(in: context).min(.name)   // .string("Apple")
    /// ```
    public func min(_ attribute: T.Attribute) async throws -> Value {
        try await min(T.fieldName(for: attribute))
    }

    /// The largest value of an attribute (async).
    ///
    /// ```swift
    /// let last = try await Item.query(in: context).max(.date)
    /// ```
    public func max(_ attribute: T.Attribute) async throws -> Value {
        try await max(T.fieldName(for: attribute))
    }

    /// The sum of a key path's numeric property, in its own type (async).
    ///
    /// ```swift
    /// let total: Int = try await Item.query(in: context).sum(\.quantity)
    /// ```
    public func sum<Field: Numeric & Decodable>(_ keyPath: KeyPath<T, Field>) async throws -> Field {
        let field = try T.fieldName(for: keyPath)
        return try decodedSum(try await aggregate(.sum, of: field), field: field)
    }

    /// The sum of a key path's optional numeric property (async).
    ///
    /// ```swift
    /// let total: Double = try await Reading.query(in: context).sum(\.celsius)
    /// ```
    public func sum<Field: Numeric & Decodable>(_ keyPath: KeyPath<T, Field?>) async throws -> Field {
        let field = try T.fieldName(for: keyPath)
        return try decodedSum(try await aggregate(.sum, of: field), field: field)
    }

    /// The average of a key path's numeric property (async).
    ///
    /// ```swift
    /// let mean = try await Item.query(in: context).average(\.quantity)
    /// ```
    public func average<Field>(_ keyPath: KeyPath<T, Field>) async throws -> Double? {
        try await average(T.fieldName(for: keyPath))
    }

    /// The smallest value of a key path's property, in its own type (async).
    ///
    /// ```swift
    /// let earliest: Date? = try await Item.query(in: context).min(\.date)
    /// ```
    public func min<Field: Decodable>(_ keyPath: KeyPath<T, Field>) async throws -> Field? {
        let field = try T.fieldName(for: keyPath)
        return try decodedExtreme(try await aggregate(.min, of: field), field: field)
    }

    /// The smallest value of a key path's optional property (async).
    ///
    /// ```swift
    /// let first: String? = try await Item.query(in: context).min(\.department)
    /// ```
    public func min<Field: Decodable>(_ keyPath: KeyPath<T, Field?>) async throws -> Field? {
        let field = try T.fieldName(for: keyPath)
        return try decodedExtreme(try await aggregate(.min, of: field), field: field)
    }

    /// The largest value of a key path's property, in its own type (async).
    ///
    /// ```swift
    /// let most: Int? = try await Item.query(in: context).max(\.quantity)
    /// ```
    public func max<Field: Decodable>(_ keyPath: KeyPath<T, Field>) async throws -> Field? {
        let field = try T.fieldName(for: keyPath)
        return try decodedExtreme(try await aggregate(.max, of: field), field: field)
    }

    /// The largest value of a key path's optional property (async).
    ///
    /// ```swift
    /// let last: String? = try await Item.query(in: context).max(\.department)
    /// ```
    public func max<Field: Decodable>(_ keyPath: KeyPath<T, Field?>) async throws -> Field? {
        let field = try T.fieldName(for: keyPath)
        return try decodedExtreme(try await aggregate(.max, of: field), field: field)
    }

    /// The matches grouped by attributes, with counts (async).
    ///
    /// ```swift
    /// let groups = try await Item.query(in: context).group(by: .department)
    /// ```
    public func group(by attributes: T.Attribute...) async throws -> [GroupCount] {
        try await group(by: attributes.map(T.fieldName(for:)))
    }

    /// The matches grouped by key paths' properties, with counts (async).
    ///
    /// ```swift
    /// let groups = try await Item.query(in: context).group(by: \.department, \.quantity)
    /// ```
    public func group(by keyPaths: PartialKeyPath<T>...) async throws -> [GroupCount] {
        try await group(by: keyPaths.map { try T.fieldName(for: $0) })
    }
}

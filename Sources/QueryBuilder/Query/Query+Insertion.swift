import Foundation
import PredicateLanguage
import RecordStore

extension Query {
    /// The first match, or a new model inserted into the context (pending until `save()`) whose
    /// fields are the values of the query's equality conditions.
    ///
    /// Throws ``QueryError/tooComplex(reason:)`` when a condition is not a plain equality from the
    /// dictionary or key path forms (an inequality, a range, an array, an `.or`, a format string),
    /// when two conditions give one field different values, or when the model cannot be made from
    /// those values (a required property without a condition — adopt ``DefaultInitializable`` to
    /// start from an empty model).
    ///
    /// ```swift
    /// let apple = try Item.query(in: context).where([.name: "Apple", .quantity: 1]).firstOrInsert()
    /// try context.save()
    /// ```
    public func firstOrInsert() throws -> T {
        try synchronously { try await self.firstOrInsert() }
    }

    /// The first match, or a new model inserted into the context (async); see the synchronous form.
    ///
    /// ```swift
    /// let apple = try await Item.query(in: context).where([.name: "Apple"]).firstOrInsert()
    /// ```
    public func firstOrInsert() async throws -> T {
        if let insertionProblem { throw QueryError.tooComplex(reason: insertionProblem) }
        if let found = try await first() { return found }
        return try insertModel(from: insertionValues)
    }

    /// A new model from field values, registered as a pending insert.
    func insertModel(from values: [String: Value]) throws -> T {
        let model = try makeModel(from: values)
        try context.insert(model)
        return model
    }

    /// A new model from field values, over an empty model when `T` is ``DefaultInitializable``.
    func makeModel(from values: [String: Value]) throws -> T {
        var fields: [String: Value] = [:]
        if let blankType = T.self as? any DefaultInitializable.Type, let blank = blankType.init() as? T {
            fields = try RecordEncoder().fields(for: blank, recordType: T.recordType)
        }
        fields.merge(values) { _, condition in condition }
        do {
            return try RecordDecoder().decode(T.self, fromFields: fields, recordType: T.recordType)
        } catch let error as ModelCodingError {
            throw QueryError.tooComplex(reason: "a new '\(T.recordType)' cannot be made from the conditions: \(error)")
        }
    }
}

extension Query where T: Identifiable {
    /// Whether a model with this id matches the query.
    ///
    /// ```swift
    /// try Item.query(in: context).exists("a1")   // true
    /// ```
    public func exists(_ id: T.ID) throws -> Bool {
        try synchronously { try await self.exists(id) }
    }

    /// The model with this id when it matches the query, or nil.
    ///
    /// ```swift
    /// let apple = try Item.query(in: context).fetch("a1")
    /// ```
    public func fetch(_ id: T.ID) throws -> T? {
        try synchronously { try await self.fetch(id) }
    }

    /// The model with this id, or a new one inserted into the context whose `id` is this id
    /// (and whose other fields come from the query's equality conditions, over an empty model
    /// when `T` is ``DefaultInitializable``). Throws ``QueryError/tooComplex(reason:)`` when the
    /// model cannot be made.
    ///
    /// ```swift
    /// let pear = try Item.query(in: context).fetchOrInsert("p1")
    /// ```
    public func fetchOrInsert(_ id: T.ID) throws -> T {
        try synchronously { try await self.fetchOrInsert(id) }
    }

    /// Whether a model with this id matches the query (async).
    ///
    /// ```swift
    /// let known = try await Item.query(in: context).exists("a1")
    /// ```
    public func exists(_ id: T.ID) async throws -> Bool {
        try await withID(id).exists()
    }

    /// The model with this id when it matches the query, or nil (async).
    ///
    /// ```swift
    /// let apple = try await Item.query(in: context).fetch("a1")
    /// ```
    public func fetch(_ id: T.ID) async throws -> T? {
        try await withID(id).first()
    }

    /// The model with this id, or a new one inserted into the context (async); see the synchronous form.
    ///
    /// ```swift
    /// let pear = try await Item.query(in: context).fetchOrInsert("p1")
    /// ```
    public func fetchOrInsert(_ id: T.ID) async throws -> T {
        if let found = try await fetch(id) { return found }
        return try insertModel(from: insertionValues(withID: id))
    }

    /// The fields of a new model with this id: the query's equality conditions, and the id.
    private func insertionValues(withID id: T.ID) throws -> [String: Value] {
        guard let encodableID = id as? any Encodable else {
            throw QueryError.tooComplex(reason: "the id type \(T.ID.self) is not Encodable")
        }
        let idValue = try ValueEncoder(recordType: T.recordType, codingPath: []).encodeRoot(encodableID)
        var values = insertionProblem == nil ? insertionValues : [:]
        values["id"] = idValue
        return values
    }

    /// The query narrowed to the record named by an id.
    private func withID(_ id: T.ID) -> Query {
        joined(and: .comparison(ComparisonPredicate(
            .keyPath("recordName"), .equalTo, .constant(.string(RecordNaming.recordName(for: id))))))
    }
}

import PredicateLanguage
import RecordStore

extension Query {
    /// Sets fields on every match in the store now, in one write (a batch update, Core Data's
    /// `NSBatchUpdateRequest`); returns how many records it updated. A `nil` value removes the
    /// field.
    ///
    /// As in Core Data, a batch update bypasses the context: it matches the stored records only
    /// and leaves the context's pending changes as they are. A model the context read before
    /// the update is an older version now: updating and saving it is a conflict
    /// (``QueryError/modelChangedElsewhere(recordType:recordName:)``); fetch it again first. It
    /// keeps the change history, live-query notifications and validation, as
    /// `Store.updateRecords(matching:set:author:)` does.
    ///
    /// ```swift
    /// try Item.query(in: context).where("quantity == 0").update(["department": "Sold out"])   // 2
    /// ```
    @discardableResult
    public func update(_ values: [String: Value]) throws -> Int {
        try synchronously { try await self.update(values) }
    }

    /// Sets fields on every match in the store now, in one write (async); see the synchronous `update(_:)` of field names.
    ///
    /// ```swift
    /// try await Item.query(in: context).where("quantity == 0").update(["department": "Sold out"])
    /// ```
    @discardableResult
    public func update(_ values: [String: Value]) async throws -> Int {
        try await context.store.updateRecords(matching: batchRequest, set: values).count
    }
}

extension Query where T: Queryable {
    /// Sets fields, named by attribute, on every match in the store now, in one write (a batch
    /// update); see the synchronous `update(_:)` of field names.
    ///
    /// ```swift
    /// try Item.query(in: context).where([.quantity: 0]).update([.department: "Sold out"])
    /// ```
    @discardableResult
    public func update(_ values: [T.Attribute: Value]) throws -> Int {
        try update(fieldValues(values))
    }

    /// Sets fields, named by attribute, on every match in the store now, in one write (async).
    ///
    /// ```swift
    /// try await Item.query(in: context).where([.quantity: 0]).update([.department: "Sold out"])
    /// ```
    @discardableResult
    public func update(_ values: [T.Attribute: Value]) async throws -> Int {
        try await update(fieldValues(values))
    }

    /// The values keyed by their fields' names.
    private func fieldValues(_ values: [T.Attribute: Value]) -> [String: Value] {
        Dictionary(values.map { (T.fieldName(for: $0.key), $0.value) }, uniquingKeysWith: { _, last in last })
    }
}

import PredicateLanguage
import RecordStore

extension Query {
    /// The store's `FetchRequest` equivalent to this query (as the `Query`
    /// package's `fetchRequest` is an `NSFetchRequest`): the record type as `entityName`, the
    /// chain's combined condition as `predicate` (nil when there is none), the sorts as
    /// `sortDescriptors`, `fetchLimit` (0 for no limit), `fetchOffset`, the selected fields as
    /// `propertiesToFetch` (nil for all), the prefetched relationships as
    /// `relationshipKeyPathsForPrefetching` and the context's zone. Customize it and run it with
    /// `Store.fetch(_:)`, `Store.fetchBatches(_:)` or `Store.count(for:)`; like Core Data's
    /// dictionary and count fetches, the store sees only saved records.
    ///
    /// ```swift
    /// let request = try Item.query(in: context)
    ///     .where("quantity == 1").or("name == %@", "Bob")
    ///     .order(by: "date", .descending)
    ///     .limit(10)
    ///     .fetchRequest
    /// request.predicate?.predicateFormat   // quantity == 1 OR name == "Bob"
    /// request.fetchLimit                   // 10
    /// let records = try context.store.fetch(request).records
    /// ```
    public var fetchRequest: FetchRequest {
        var request = FetchRequest(entityName: T.recordType, predicate: condition, sortDescriptors: sorts)
        request.fetchLimit = fetchLimit ?? 0
        request.fetchOffset = fetchOffset
        request.propertiesToFetch = selectedKeys?.map(FetchProperty.field)
        request.zoneID = context.zone
        request.relationshipKeyPathsForPrefetching = prefetchedRelationships
        return request
    }
}

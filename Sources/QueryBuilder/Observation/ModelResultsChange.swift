import RecordStore

/// One element of a builder query's observation (``Query/observe()``): the models now, and how
/// they changed since the element before.
///
/// ```swift
/// for try await change in Item.query(in: context).order(by: "name").observe() {
///     print(change.models.map(\.name), change.difference)
/// }
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ResultsChange`,
/// `ResultsDifference` and `SectionedDifference`.
public struct ModelResultsChange<T: RecordModel>: Sendable {
    /// Why this element came: the first results, a change, or a reset (read again).
    public let kind: ResultsChange.Kind
    /// The models in the query's order (the context's pending changes merged in, as `all()` does).
    public let models: [T]
    /// How they differ from the previous element's models, by position.
    public let difference: ResultsDifference
}

/// One element of a live query (``RecordObservation``): the results now, and how they changed
/// since the element before.
///
/// ```swift
/// for try await change in store.observe(query) {
///     switch change.kind {
///     case .initial, .reset: tableView.reloadData()
///     case .changed: apply(change.difference)
///     }
/// }
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ResultsDifference`,
/// `SectionedDifference` and `ModelResultsChange`.
public struct ResultsChange: Sendable {
    /// Why this element came.
    public enum Kind: Sendable, Equatable {
        /// The first results (``ResultsChange/difference`` is empty).
        case initial
        /// Commits changed the results.
        case changed
        /// The observation lost track of the commits (it fell too far behind, or a notification
        /// connection dropped), or a schema migration changed records without changing their
        /// change tags (renamed fields, filled-in defaults), and read the results again: redraw
        /// everything.
        /// ``ResultsChange/difference`` still says how they differ from the element before.
        case reset
    }

    /// Why this element came.
    public let kind: Kind
    /// The records of the results (for a limited query, its window: the first `limit` matches).
    public let records: ObservedResults
    /// How the results differ from the previous element's.
    public let difference: ResultsDifference
    /// The sections, when the observation has a section key; empty otherwise.
    public let sections: [ResultsSection]
    /// The difference by sections and index paths, when the observation has a section key.
    public let sectionedDifference: SectionedDifference?
}

/// The direction of one sort level.
///
/// ```swift
/// try Item.query(in: context).order(by: "quantity", .descending)
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `Sort`, `SortComparison`
/// and `QuerySort`.
public enum SortDirection: Sendable, Hashable {
    /// Smaller values first (the default); nil first.
    case ascending
    /// Larger values first; nil last.
    case descending
}

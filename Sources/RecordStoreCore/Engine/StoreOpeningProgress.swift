/// Progress of the long work a store does while it opens: bringing an older file to the current
/// layout (say, computing the folded forms and sort keys of every string of a large table), or
/// building the indexes an interrupted bulk import left. The same reports tell of the indexes a
/// bulk import builds at its end (``RecordImporter/indexProgress``) and of those a schema change
/// builds on a PostgreSQL table that holds records (``Store/define(_:progress:)-5x8qf``). Reported a
/// few times a second at most; nothing is reported when there is nothing to do.
///
/// ```swift
/// let store = try Store.open(path: "cities.sqlite") { progress in
///     print("\(progress.task): \(progress.completed)/\(progress.total)")
/// }
/// ```
public struct StoreOpeningProgress: Sendable, Hashable, CustomStringConvertible {
    /// What is being done: `Computing folded forms and sort keys of City.name`.
    public var task: String
    /// Units done (rows, or indexes).
    public var completed: Int
    /// Units in all.
    public var total: Int
    /// What a unit is, plural: `rows` or `indexes`.
    public var unit: String

    /// Creates a progress report.
    ///
    /// ```swift
    /// StoreOpeningProgress(task: "Building the indexes of City", completed: 2, total: 7, unit: "indexes")
    /// ```
    public init(task: String, completed: Int, total: Int, unit: String = "rows") {
        self.task = task
        self.completed = completed
        self.total = total
        self.unit = unit
    }

    /// `task: completed/total`.
    public var description: String { "\(task): \(completed)/\(total)" }
}

/// Receives ``StoreOpeningProgress`` reports.
public typealias StoreOpeningProgressHandler = @Sendable (StoreOpeningProgress) -> Void

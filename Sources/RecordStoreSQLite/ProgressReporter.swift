import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Passes row-by-row progress to a ``StoreOpeningProgressHandler`` at most ten times a second
/// (and always the last row), so that reporting never slows the work.
///
/// ```swift
/// let reporter = ProgressReporter(task: "Folding", total: rows.count, handler: progress)
/// for (index, row) in rows.enumerated() { work(row); reporter.report(index + 1) }
/// ```
final class ProgressReporter {
    private let task: String
    private let total: Int
    private let handler: StoreOpeningProgressHandler?
    private let everyUnit: Bool
    private let unit: String
    private var lastReport = Date.distantPast

    /// A reporter of `total` units; with `everyUnit`, for units that are slow by themselves
    /// (an index each), the clock is read at every unit rather than every 256th.
    init(task: String, total: Int, handler: StoreOpeningProgressHandler?, unit: String = "rows", everyUnit: Bool = false) {
        self.unit = unit
        self.task = task
        self.total = total
        self.handler = handler
        self.everyUnit = everyUnit
    }

    /// Reports `completed` units when a tenth of a second has passed since the last report, or when done.
    func report(_ completed: Int) {
        guard let handler else { return }
        // Reading the clock every row would cost more than the work of small rows.
        guard everyUnit || completed == total || completed % 256 == 0 else { return }
        let now = Date()
        guard completed == total || now.timeIntervalSince(lastReport) >= 0.1 else { return }
        lastReport = now
        handler(StoreOpeningProgress(task: task, completed: completed, total: total, unit: unit))
    }
}

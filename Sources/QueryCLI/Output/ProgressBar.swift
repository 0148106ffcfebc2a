import Foundation
import PredicateLanguage
import RecordStore

/// A one-line progress bar on standard error, with the rate and the time left, redrawn at
/// most ten times a second; drawn only when standard error is a terminal, so a pipe or a log
/// file gets nothing.
///
/// ```
/// Exporting City  [############                  ]  41%  70,000 records  52,340/s  2s left
/// ```
///
/// ```swift
/// let bar = ProgressBar(task: "Exporting City", unit: "records")
/// bar.show(completed: 70_000, fraction: 0.41)
/// bar.finish()
/// ```
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    /// Whether the bar is drawn (standard error is a terminal and the command wants it).
    var isEnabled: Bool { enabled }

    /// What the bar shows and when it last drew.
    private struct State {
        var unit: String
        var task: String
        var start = Date()
        var lastDrawn = Date.distantPast
        var drawn = false
    }

    private let state: LockedState<State>

    /// A bar for a task counted in `unit`; `enabled` defaults to whether standard error is a terminal.
    init(task: String, unit: String, enabled: Bool = CommandOutput.standardErrorIsTerminal) {
        state = LockedState(State(unit: unit, task: task))
        self.enabled = enabled
    }

    /// Draws each step a store reports (``StoreOpeningProgress``: a migration's rows, the indexes
    /// an import or a schema change builds) on this bar, under the step's own task and unit.
    ///
    /// ```swift
    /// try await store.define(schema, progress: bar.stepHandler)
    /// ```
    var stepHandler: StoreOpeningProgressHandler {
        { [self] step in
            let fraction: Double? = step.total > 0 ? Double(step.completed) / Double(step.total) : nil
            show(completed: step.completed, fraction: fraction, task: step.task, unit: step.unit, force: step.completed == step.total)
        }
    }

    /// Redraws the bar: `completed` units done, `fraction` of the whole (nil when unknown: no
    /// bar nor time left). A new `task` label (counted in `unit`, when given) restarts the
    /// rate's clock; `force` draws even when the last drawing was less than 0.1 s ago.
    func show(completed: Int, fraction: Double?, task newTask: String? = nil, unit newUnit: String? = nil, force: Bool = false) {
        guard enabled else { return }
        state.withLock { state in
            let now = Date()
            if let newUnit { state.unit = newUnit }
            if let newTask, newTask != state.task {
                state.task = newTask
                state.start = now
                state.lastDrawn = .distantPast
            }
            guard force || now.timeIntervalSince(state.lastDrawn) >= 0.1 else { return }
            state.lastDrawn = now
            state.drawn = true
            let line = "\r" + Self.line(task: state.task, completed: completed, unit: state.unit, fraction: fraction,
                                        elapsed: now.timeIntervalSince(state.start)) + "\u{1B}[K"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// Ends the bar's line (when one was drawn).
    func finish() {
        guard enabled else { return }
        state.withLock { state in
            if state.drawn { FileHandle.standardError.write(Data("\n".utf8)) }
            state.drawn = false
        }
    }

    /// The text of the bar.
    ///
    /// ```swift
    /// ProgressBar.line(task: "Importing City", completed: 5_000, unit: "records", fraction: 0.5, elapsed: 2)
    /// // "Importing City  [###############               ]  50%  5,000 records  2,500/s  2s left"
    /// ```
    static func line(task: String, completed: Int, unit: String, fraction: Double?, elapsed: TimeInterval) -> String {
        var parts = [task]
        if let fraction {
            let clamped = min(1, max(0, fraction))
            let width = 30
            let filled = Int(clamped * Double(width))
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "]")
            parts.append(String(format: "%3.0f%%", clamped * 100))
        }
        parts.append("\(grouped(completed)) \(unit)")
        if elapsed > 0 { parts.append("\(grouped(Int(Double(completed) / elapsed)))/s") }
        if let fraction, fraction > 0, fraction < 1 {
            parts.append("\(duration(elapsed * (1 - fraction) / fraction)) left")
        }
        return parts.joined(separator: "  ")
    }

    /// 1234567 as `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = String(abs(number))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }

    /// Seconds as `42s`, `3m 05s` or `1h 02m`.
    static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        if total < 60 { return "\(total)s" }
        if total < 3600 { return String(format: "%dm %02ds", total / 60, total % 60) }
        return String(format: "%dh %02dm", total / 3600, (total % 3600) / 60)
    }
}

import Foundation

/// A process's own peak resident set: `VmHWM` from `/proc/PID/status`.
///
/// Not `ru_maxrss`: a child started with `posix_spawn` (a vfork) carries its parent's memory
/// high-water mark into `ru_maxrss` at exec, so `wait4` would report the bench's own size.
///
/// ```swift
/// PeakMemory.kilobytes(ofProcess: "self")   // this process's peak, in kB
/// ```
enum PeakMemory {
    /// `VmHWM` of a process (`"self"` or a process ID), in kB; nil when it cannot be read (the
    /// process has ended, or the system has no `/proc`).
    static func kilobytes(ofProcess process: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }
}

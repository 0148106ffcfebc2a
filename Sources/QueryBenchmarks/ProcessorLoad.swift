import Foundation

/// How busy the machine's processors were during a measured round, and how much of that was
/// this process (the bench's server and clients) and how much the rest (PostgreSQL, mostly):
/// `/proc/stat`'s jiffies and `/proc/self/stat`'s, read at the round's start and end.
///
/// A figure that compares a concurrent round against one client means little when the one
/// client already kept the processors busy: `ceiling` says how far any number of clients could
/// go at one client's processor time a request.
///
/// ```swift
/// let start = ProcessorLoad.Sample.now()
/// try await round()
/// let load = ProcessorLoad(from: start, to: .now())
/// print(load.busyCores, load.ceiling)   // 1.4 of 2 cores; 1.43x at most
/// ```
struct ProcessorLoad {
    /// The counters at one moment, in clock ticks.
    struct Sample {
        /// Every processor's ticks, busy and idle (the `cpu` line of `/proc/stat`).
        let total: Double
        /// Every processor's idle and I/O-wait ticks.
        let idle: Double
        /// This process's user and system ticks.
        let ownProcess: Double

        /// The counters now; zeros where the system has no `/proc`.
        static func now() -> Sample {
            var total = 0.0, idle = 0.0, own = 0.0
            if let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
               let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) {
                let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
                total = ticks.prefix(8).reduce(0, +)
                if ticks.count > 4 { idle = ticks[3] + ticks[4] }
            }
            if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
               let end = stat.lastIndex(of: ")") {
                // After the command name: state is field 3, utime and stime fields 14 and 15.
                let fields = stat[stat.index(after: end)...].split(separator: " ")
                if fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) { own = user + system }
            }
            return Sample(total: total, idle: idle, ownProcess: own)
        }
    }

    /// The processors the machine has.
    let cores: Int
    /// Processors kept busy on average during the round (0 to `cores`).
    let busyCores: Double
    /// Of those, the ones this process kept busy.
    let ownCores: Double

    init(from start: Sample, to end: Sample, cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.cores = cores
        let elapsed = end.total - start.total
        guard elapsed > 0 else {
            busyCores = 0
            ownCores = 0
            return
        }
        let busyShare = 1 - (end.idle - start.idle) / elapsed
        busyCores = busyShare * Double(cores)
        // The total counts every processor's ticks; the process's are in the same clock ticks.
        ownCores = (end.ownProcess - start.ownProcess) / elapsed * Double(cores)
    }

    /// How many times one round's rate the machine could reach at the same processor time a
    /// request, all processors busy: `cores / busyCores`.
    var ceiling: Double { busyCores > 0 ? Double(cores) / busyCores : 0 }

    /// "1.40 of 2 cores busy (this process 0.90, the rest 0.50)".
    var description: String {
        // The machine's ticks and the process's are counted apart: the difference can dip a
        // hair below zero when nothing else ran.
        String(format: "%.2f of %d cores busy (the bench's server and clients %.2f, PostgreSQL and the rest %.2f)", busyCores, cores, ownCores, max(0, busyCores - ownCores))
    }
}

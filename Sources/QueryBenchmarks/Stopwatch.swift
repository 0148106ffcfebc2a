import Foundation

/// Timing helpers: repeat a body and keep the best (least disturbed) run.
enum Stopwatch {
    /// Nanoseconds per iteration of `body`, the minimum over `runs` runs of `iterations` iterations.
    static func nanosecondsPerIteration(runs: Int = 5, iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { try body() }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            best = min(best, elapsed / Double(iterations))
        }
        return best
    }

    /// Seconds taken by one run of `body`, the minimum over `runs` runs.
    static func seconds(runs: Int = 3, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }
}

/// Keeps a value alive so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

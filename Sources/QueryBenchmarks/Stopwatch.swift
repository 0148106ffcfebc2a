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

    /// Nanoseconds per iteration of two bodies measured in turns (a run of `first`, a run of
    /// `second`, and again), each the minimum over its `runs` runs: a figure and its baseline
    /// measured this way see the same machine, so a burst of other work (a database's background
    /// writer, another process) that lands on one run of one side does not decide their ratio.
    static func pairedNanosecondsPerIteration(
        runs: Int = 5, iterations: Int, _ first: () throws -> Void, _ second: () throws -> Void
    ) rethrows -> (first: Double, second: Double) {
        var best = (first: Double.infinity, second: Double.infinity)
        for _ in 0..<runs {
            best.first = min(best.first, try nanosecondsPerIteration(runs: 1, iterations: iterations, first))
            best.second = min(best.second, try nanosecondsPerIteration(runs: 1, iterations: iterations, second))
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

extension Stopwatch {
    /// Nanoseconds per iteration of an async `body` (a store's async calls, on any engine), the
    /// minimum over `runs` runs of `iterations` iterations.
    static func awaitedNanosecondsPerIteration(runs: Int = 5, iterations: Int, _ body: () async throws -> Void) async rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { try await body() }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
        }
        return best
    }
}

/// Keeps a value alive so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

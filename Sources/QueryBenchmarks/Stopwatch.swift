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

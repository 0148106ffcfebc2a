/// One section of `query-bench`: a group of figures measured side by side with their baselines.
protocol BenchmarkSection: Sendable {
    /// The name used to select the section on the command line.
    var name: String { get }
    /// The heading printed above its figures.
    var title: String { get }
    /// Measures and reports the section's figures.
    func run(report: BenchmarkReport) async throws
}

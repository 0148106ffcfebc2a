import RecordStoreCore

extension ConformanceCase {
    /// One case for each ``StoreBehavior``: saves, conflicts, save policies, zones, the change
    /// history and its paging, assets, live changes. They run on the store the query cases use,
    /// each in zones of its own that it deletes when done.
    ///
    /// ```swift
    /// for testCase in ConformanceCase.storeBehaviors { ... }
    /// ```
    public static let storeBehaviors: [ConformanceCase] = StoreBehavior.allCases.map { ConformanceCase(behavior: $0) }

    /// Every case of the suite: the queries over `cities15000` (``cities15000``), then the
    /// store's behaviours (``storeBehaviors``).
    ///
    /// ```swift
    /// @Test(arguments: ConformanceCase.all)
    /// func conformance(_ testCase: ConformanceCase) async throws { ... }
    /// ```
    public static let all: [ConformanceCase] = cities15000 + storeBehaviors
}
